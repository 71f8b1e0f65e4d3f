import DeliveryKit
import Foundation
import OCEQCore
import Testing

/// Nothing is written outside the target folder, whatever the folder or its manifest holds.
@Suite("download: nothing leaves the folder")
struct ContainmentTests {
    @Test("planted symbolic links and a forged manifest entry cannot send bytes outside the folder")
    func plantedLinksAndForgedManifest() async throws {
        let export = try SyntheticExport(count: 4)
        defer { export.remove() }
        let server = try DownloadServer(export: export.path)
        let base = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/out"
        let outside = base + "/outside"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        // A link where file-0's part will be written, and one at file-1's final name.
        try FileManager.default.createSymbolicLink(atPath: folder + "/file-0.bin.part", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folder + "/file-1.bin", withDestinationPath: outside)
        // A manifest entry that names a file outside the folder for file-2.
        let forged: JSON = [
            "version": 1,
            "files": [["assetId": .string(export.files[2].id), "kind": "native", "file": "../outside", "size": 4]],
        ]
        try Data(JSONWriter().bytes(forged)).write(to: URL(fileURLWithPath: folder + "/.oceq-manifest.json"))

        let result = try await server.run("download (list type=File) to $1", arguments: [folder])
        #expect(fileBytes(outside) == Array("keep".utf8), "the file outside is untouched")
        // file-0 arrives whole, so its part has no name until it is named file-0.bin: the link where a
        // named part would be is never opened, nor replaced. (A named part refuses a link:
        // NamelessPartTests.)
        #expect(result.code == 0, "\(result.output)\(result.errors)")
        var part = stat()
        #expect(lstat(folder + "/file-0.bin.part", &part) == 0 && (part.st_mode & S_IFMT) == S_IFLNK, "left alone")
        #expect(fileBytes(folder + "/file-0.bin") == export.files[0].bytes)
        let entries = try manifestFiles(folder)
        // The link at file-1's name is not the download's to replace: file-1 takes the next free name.
        #expect(
            Set(entries.compactMap { $0["file"]?.stringValue })
                == ["file-0.bin", "file-1 (2).bin", "file-2.bin", "file-3.bin"])
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            var info = stat()
            #expect(lstat(folder + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG, "\(name) is a file")
        }
        #expect(fileBytes(folder + "/file-1 (2).bin") == export.files[1].bytes)
        var link = stat()
        #expect(lstat(folder + "/file-1.bin", &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK, "left alone")
    }

    @Test("a manifest that is a link to a file outside the folder is neither read nor written through")
    func linkedManifest() async throws {
        let export = try SyntheticExport(count: 2)
        defer { export.remove() }
        let server = try DownloadServer(export: export.path)
        let base = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/out"
        let outside = base + "/outside.json"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let planted = Array(#"{"version": 1, "files": []}"#.utf8)
        try Data(planted).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/.oceq-manifest.json", withDestinationPath: outside)

        let result = try await server.run("download (list type=File) to $1", arguments: [folder])
        #expect(result.code == 0, "\(result.output)\(result.errors)")
        #expect(result.errors.contains("is a symbolic link"), "the linked manifest is refused: \(result.errors)")
        #expect(fileBytes(outside) == planted, "the file outside is untouched")
        var info = stat()
        #expect(lstat(folder + "/.oceq-manifest.json", &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG)
    }
}
