import DeliveryKit
import DownloadModule
import Foundation
import OCEQCore
import OCEQLanguage
import OCEQShell
import OCEQTestSupport
import Testing

/// `download` on the bundled sample channel: summaries (pinned in golden files), renditions,
/// thumbnails, and every kind of bad input refused before anything is transferred.
@MainActor
@Suite("download: summaries and bad input on the sample channel", .serialized)
struct DownloadCommandTests {
    /// `text` with the folder shown as OUT and the server's port as PORT.
    func masked(_ text: String, _ folder: String) -> String {
        text.replacingOccurrences(of: folder, with: "OUT").replacingOccurrences(
            of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
    }

    @Test("every example of download parses")
    func examples() {
        for example in DownloadCommand.descriptor.examples {
            let parsed = Parser.parse(example, options: ParserOptions(commands: registry.parserCommands))
            #expect(!parsed.hasErrors, "\(example)")
        }
    }

    @Test("summaries of a first run, a rerun, a larger selection and a mixed one (golden)")
    func summaries() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = """
            download (list type=Image order name limit 4) to $1
            download (list type=Image order name limit 4) to $1
            download (list type=Image order name limit 6) to $1
            download (list name ^= "a" order name limit 8) to $1
            """
        let result = try await server.run(script, arguments: [folder])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors == "")
        expectGolden(masked(result.output, folder), named: "summary-runs.txt")
        let entries = try manifestFiles(folder)
        #expect(entries.count == 6, "six images; the articles and the author give no file")
        #expect(!String(decoding: fileBytes(folder + "/.oceq-manifest.json") ?? [], as: UTF8.self).contains("token"))
        #expect(!String(decoding: fileBytes(folder + "/.oceq-manifest.json") ?? [], as: UTF8.self).contains("http"))
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            #expect(Int64(entry["size"]?.intValue ?? -1) == Int64(fileBytes(folder + "/" + name)?.count ?? -2))
            #expect(entry["etag"]?.stringValue?.hasPrefix("\"") == true)
        }
    }

    @Test("a selection over several types (hits without fields, as OCM sends them) reads each asset whole")
    func severalTypes() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Four images and two articles have 'latte' in their names; the search pins no type.
        let result = try await server.run(
            "download (list name ~ latte) rendition Medium format jpg to $1", arguments: [folder])
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("downloaded  4 files"), "\(result.output)")
        #expect(result.output.contains("skipped     2 items that are not a digital asset"), "\(result.output)")
        #expect(try manifestFiles(folder).count == 4)
    }

    @Test("a file that keeps failing is reported with its reason and the statement fails (golden)")
    func failureSummary() async throws {
        let images = try await imageIDs(3)
        let server = try DownloadServer(faults: "503:retry-after=0:path=/assets/\(images[1])")
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await server.run(
            "download (list type=Image order name limit 3) to $1\necho not reached", arguments: [folder])
        #expect(result.code == 1)
        expectGolden(masked(result.output, folder), named: "summary-failure.txt")
        #expect(!result.output.contains(DownloadServer.token))
        let entries = try manifestFiles(folder)
        #expect(entries.count == 2)
        #expect(!entries.contains { $0["assetId"]?.stringValue == images[1] })
        #expect(folderEntries(folder).count == 3, "two files and the manifest: \(folderEntries(folder))")
    }

    @Test("under set format json the summary is one JSON object")
    func jsonSummary() async throws {
        let images = try await imageIDs(2)
        let server = try DownloadServer(faults: "503:retry-after=0:path=/assets/\(images[1])")
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await server.run(
            "set format json\ndownload (list name ^= \"avatar-\" order name limit 2) to $1", arguments: [folder])
        #expect(result.code == 1)
        let json = try JSON.parse(Array(result.output.utf8))
        #expect(json["items"]?.intValue == 2)
        #expect(json["downloaded"]?.intValue == 1)
        #expect(json["bytes"]?.intValue == fileBytes(folder + "/avatar-alex-morgan.jpg")?.count)
        #expect(json["skipped"]?.intValue == 0)
        #expect(json["failures"]?[0]?["id"]?.stringValue == images[1])
        #expect(
            json["failures"]?[0]?["reason"]?.stringValue?.contains("(HTTP 503 Service Unavailable from GET") == true)
        #expect(json["folder"]?.stringValue == folder)
    }

    @Test("under set format csv the summary is field,value rows, before the error")
    func csvSummary() async throws {
        let images = try await imageIDs(2)
        let server = try DownloadServer(faults: "503:retry-after=0:path=/assets/\(images[1])")
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await server.run(
            "set format csv\ndownload (list name ^= \"avatar-\" order name limit 2) to $1", arguments: [folder])
        #expect(result.code == 1)
        #expect(result.output.hasPrefix("field,value\r\nbytes,"))
        #expect(result.output.contains("\r\ndownloaded,1\r\nfailures.1.id,\(images[1])\r\n"))
        #expect(result.output.contains("\r\nitems,2\r\n"))
        #expect(!result.output.contains("download to"))
        #expect(result.errors.contains("1 file failed"))
    }

    @Test("renditions and thumbnails: named from the asset, recorded, skipped when complete")
    func renditionsAndThumbnails() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = """
            download (list type=Image order name limit 2) rendition Medium format jpg to $1
            download (list type=Image order name limit 2) rendition Small to $1
            download (list type=Image order name limit 2) thumbnail to $1
            download (list type=Image order name limit 2) thumbnail to $1
            """
        let result = try await server.run(script, arguments: [folder])
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(
            masked(result.output, folder) + folderEntries(folder).joined(separator: "\n") + "\n",
            named: "renditions.txt")
        for entry in try manifestFiles(folder) {
            let name = try #require(entry["file"]?.stringValue)
            let bytes = try #require(fileBytes(folder + "/" + name))
            if name.hasSuffix(".jpg") { #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "\(name) is a JPEG") }
            if name.hasSuffix(".webp") { #expect(bytes.count > 12 && Array(bytes[8..<12]) == Array("WEBP".utf8)) }
        }
    }

    @Test("a file in the folder that the manifest does not record is never replaced")
    func keepsOtherFiles() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await server.run("download (list type=Image order name limit 1) to $1", arguments: [folder])
        #expect(first.code == 0, "\(first.errors)")
        let name = try #require(try manifestFiles(folder).first?["file"]?.stringValue)
        // The user's own file under that name, and no manifest: the next run must not touch it.
        try FileManager.default.removeItem(atPath: folder + "/.oceq-manifest.json")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        let stem = SafeFileName.split(name).stem
        try Data("mine too".utf8).write(to: URL(fileURLWithPath: folder + "/" + stem + "-thumbnail.jpg"))
        let second = try await server.run(
            "download (list type=Image order name limit 1) to $1\n"
                + "download (list type=Image order name limit 1) thumbnail to $1", arguments: [folder])
        #expect(second.code == 0, "\(second.errors)")
        #expect(fileBytes(folder + "/" + name) == Array("mine".utf8))
        #expect(fileBytes(folder + "/" + stem + "-thumbnail.jpg") == Array("mine too".utf8))
        let files = try manifestFiles(folder).compactMap { $0["file"]?.stringValue }.sorted()
        #expect(files.count == 2 && !files.contains(name) && !files.contains(stem + "-thumbnail.jpg"), "\(files)")
        #expect(files.contains(stem + " (2).jpg"), "\(files)")
    }

    @Test("targets: a listing variable, @n, $var with an item, slug:S and (first ...) all name items")
    func targets() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = """
            let images = list type=Image order name limit 3
            download $images to $1
            list type=Image order name desc limit 2
            download @1 to $1
            let one = @2
            download $one to $1
            download slug:image-ridge-evening-wide-30 to $1
            download (first type=Image order name) to $1
            """
        let result = try await server.run(script, arguments: [folder])
        #expect(result.code == 0, "\(result.errors)")
        let summaries = result.output.split(separator: "\n").filter { $0.hasPrefix("download to ") }
        #expect(
            summaries.map { $0.hasSuffix(": 3 items") || $0.hasSuffix(": 1 item") } == Array(repeating: true, count: 5))
        #expect(result.output.contains("skipped     1 file already complete"), "(first ...) is row 1 of the listing")
        #expect(try manifestFiles(folder).count == 6)
        #expect(folderEntries(folder).contains("ridge-evening-wide-30.jpg"))
    }

    @Test("an id that does not exist: no item ... in this channel")
    func missingItem() async throws {
        let server = try DownloadServer()
        let base = temporaryFolder()
        defer { TestTemporary.remove(base) }
        let folder = base + "/never"
        let result = try await server.run("download CORE00000000000000000000000000DEAD to $1", arguments: [folder])
        #expect(result.code == 1)
        #expect(result.errors.contains("error: no item CORE00000000000000000000000000DEAD in this channel"))
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test(
        "a rendition or format the asset lacks: the message names those it has, the caret the word; nothing is written")
    func missingRendition() async throws {
        let server = try DownloadServer()
        let base = temporaryFolder()
        defer { TestTemporary.remove(base) }
        let folder = base + "/never"
        let id = try await imageIDs(1)[0]
        /// Where `word` starts in `statement`, counted from 1 as in `FILE:LINE:COL`.
        func column(of word: String, in statement: String) -> Int {
            statement.distance(from: statement.startIndex, to: statement.range(of: word)!.lowerBound) + 1
        }
        let renditionText = "download \(id) rendition Huge to $1"
        let rendition = try await server.run(renditionText, arguments: [folder])
        #expect(rendition.code == 1)
        #expect(rendition.errors.contains("has no rendition 'Huge'; it has Thumbnail, Medium, Large, Small"))
        #expect(rendition.errors.hasPrefix("test.oceq:1:\(column(of: "Huge", in: renditionText)): error: "))
        let formatText = "download \(id) rendition Medium format gif to $1"
        let format = try await server.run(formatText, arguments: [folder])
        #expect(format.code == 1)
        #expect(format.errors.contains("has no format 'gif' of rendition 'Medium'; it has jpg, png, webp"))
        #expect(format.errors.hasPrefix("test.oceq:1:\(column(of: "gif", in: formatText)): error: "))
        let contentText = "download slug:spiced-maple-latte rendition Medium to $1"
        let content = try await server.run(contentText, arguments: [folder])
        #expect(content.code == 1)
        #expect(content.errors.contains("not a digital asset: it has no renditions"))
        #expect(content.errors.hasPrefix("test.oceq:1:10: error: "), "a content item: the caret stays on the target")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(server.takeAssetStatuses().isEmpty, "no transfer was attempted")
    }

    @Test("a selection whose assets lack the format asked for fails without advice to run it again")
    func selectionLackingFormat() async throws {
        let server = try DownloadServer()
        let base = temporaryFolder()
        defer { TestTemporary.remove(base) }
        let run = try await server.run(
            "download (list type=Image limit 2) rendition Medium format gif to $1", arguments: [base + "/out"])
        #expect(run.code == 1)
        #expect(
            run.output.contains("has no format 'gif' of rendition 'Medium'; it has jpg, png, webp"), "\(run.output)")
        #expect(run.errors.contains("error: download: 2 files failed (see the summary)\n"), "\(run.errors)")
        #expect(!run.errors.contains("run it again"), "\(run.errors)")
        #expect(server.takeAssetStatuses().isEmpty, "no transfer was attempted")
    }

    @Test("a content item alone is refused; in a selection it is reported and skipped, and nothing is written")
    func contentItems() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let single = try await server.run(
            "first type=OCEGettingStartedAuthor order name\ndownload @1 to $1", arguments: [folder])
        #expect(single.code == 1)
        #expect(single.errors.contains("not a digital asset: it has no native file"))
        let batch = try await server.run(
            "download (list type=OCEGettingStartedAuthor) thumbnail to $1", arguments: [folder])
        #expect(batch.code == 0)
        #expect(batch.output.contains("skipped     4 items that are not a digital asset"))
        #expect(folderEntries(folder).isEmpty, "no manifest of nothing")
        let fresh = folder + "/new/deeper"
        let none = try await server.run(
            "download (list type=OCEGettingStartedAuthor) thumbnail to $1", arguments: [fresh])
        #expect(none.code == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/new"), "the folders it made for nothing are gone")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/keep"))
        let kept = try await server.run(
            "download (list type=OCEGettingStartedAuthor) thumbnail to $1", arguments: [folder])
        #expect(kept.code == 0)
        #expect(folderEntries(folder) == ["keep"], "a folder it did not make is left as it was")
    }

    @Test("a folder that cannot be created is refused before any transfer")
    func badFolder() async throws {
        let server = try DownloadServer()
        let base = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: base + "/file"))
        let result = try await server.run("download (list type=Image limit 3) to $1", arguments: [base + "/file/sub"])
        #expect(result.code == 1)
        #expect(result.errors.contains("error: cannot create the folder \(base)/file/sub: Not a directory"))
        #expect(result.errors.contains("nothing was downloaded"))
        let onFile = try await server.run("download (list type=Image limit 3) to $1", arguments: [base + "/file"])
        #expect(onFile.errors.contains("cannot download to \(base)/file: it is not a folder"))
        #expect(server.takeAssetStatuses().isEmpty)
        #expect(folderEntries(base) == ["file"])
    }

    @Test(
        "usage errors point at the word",
        arguments: [
            ("download", "download needs a target"),
            ("download @1 rendition", "rendition needs a rendition name"),
            ("download @1 format jpg", "format goes with rendition NAME"),
            ("download @1 native thumbnail", "say native, rendition NAME or thumbnail once"),
            ("download @1 --concurrency 0", "--concurrency takes a number from 1 to 64, not '0'"),
            ("download @1 --fast", "unknown option '--fast'"),
            ("download @1 sideways", "unexpected argument"),
            ("download (count type=Image)", "a count selects no items"),
        ])
    func usage(_ statement: String, _ message: String) async throws {
        let server = try DownloadServer()
        let result = try await server.run("list type=Image limit 1\n" + statement)
        #expect(result.code != 0)
        #expect(result.errors.contains(message), "\(result.errors)")
        #expect(server.takeAssetStatuses().isEmpty)
    }

    /// The ids of the first `count` images by name.
    func imageIDs(_ count: Int) async throws -> [String] {
        let server = try DownloadServer()
        let (session, _, _) = try server.session()
        let page = try await session.requireConnection().client.fetch(
            DeliveryAPI.listAssets().query(rawText: #"(type eq "Image")"#).order([SortKey("name", .asc)]).limit(
                count))
        return page.items.map(\.id)
    }
}
