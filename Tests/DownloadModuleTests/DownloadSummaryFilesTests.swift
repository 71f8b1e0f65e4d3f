// Issue 18, points 2 and 9 for `download`: the summary names each file written (a renamed
// `photo (2).jpg` included) in every format; a selection that matches nothing makes no folder; a
// rendition name matches in any case, and a misspelt one is answered with a did-you-mean.

import DownloadModule
import Foundation
import OCEQCore
import OCEQShell
import OCEQTestSupport
import Testing

@MainActor
@Suite("download: the files written, empty selections, rendition names", .serialized)
struct DownloadSummaryFilesTests {
    @Test("a name already taken is written as 'NAME (2)', and the summary says so in text and json")
    func renamedFileListed() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { TestTemporary.remove(folder) }
        let first = try await server.run("download (list type=Image order name limit 1) to $1", arguments: [folder])
        #expect(first.code == 0, "\(first.errors)")
        let written = try #require(folderEntries(folder).first { isFinalFile($0) })
        // A file the manifest does not record takes the name: the download goes to `NAME (2).EXT`.
        try FileManager.default.removeItem(atPath: folder + "/.oceq-manifest.json")
        let again = try await server.run("download (list type=Image order name limit 1) to $1", arguments: [folder])
        let stem = (written as NSString).deletingPathExtension
        let renamed = stem + " (2)." + (written as NSString).pathExtension
        #expect(again.output.contains("wrote: \(renamed) ("), "\(again.output)")
        #expect(folderEntries(folder).contains(renamed))
        let json = try await server.run(
            "set format json\ndownload (list type=Image order name limit 2) to $1 --force", arguments: [folder])
        let summary = try JSON.parse(json.output)
        let files = try #require(summary["files"]?.arrayValue)
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0["file"]?.stringValue != nil && ($0["bytes"]?.intValue ?? 0) > 0 })
        let csv = try await server.run(
            "set format csv\ndownload (list type=Image order name limit 1) to $1 --force", arguments: [folder])
        #expect(csv.output.contains("files.1.file,"), "\(csv.output)")
    }

    @Test("a selection that matches nothing creates no folder; a first that finds nothing is an error")
    func emptySelectionNoFolder() async throws {
        let server = try DownloadServer()
        let parent = temporaryFolder()
        defer { TestTemporary.remove(parent) }
        let folder = parent + "/never"
        let result = try await server.run(
            "download (list type=Image name = \"no such image\") to $1", arguments: [folder])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("download to \(folder): 0 items"))
        #expect(!FileManager.default.fileExists(atPath: folder))
        // A first names one item: none is the error show (first ...) gives (it was "0 items" and exit 0).
        let first = try await server.run(
            "download (first type=Image name = \"no such image\") to $1", arguments: [folder])
        #expect(first.code == 1)
        #expect(first.errors.contains("error: the selection matched no item"), "\(first.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test("rendition names match in any case; a misspelt one gets a did-you-mean")
    func renditionNames() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { TestTemporary.remove(folder) }
        let result = try await server.run(
            "let x = first type=Image order name\ndownload $x rendition medium to $1", arguments: [folder])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("-Medium."), "the file is named after the asset's rendition: \(result.output)")
        let wrong = try await server.run(
            "let x = first type=Image order name\ndownload $x rendition Mediun to $1", arguments: [folder])
        #expect(wrong.code != 0)
        #expect(wrong.errors.contains("did you mean 'Medium'?"), "\(wrong.errors)")
    }
}
