import ChannelServer
import DeliveryKit
import DownloadModule
import Foundation
import OCEQCore
import OCEQLanguage
import OCEQShell
import OCEQTestSupport
import Testing

/// `download (list ...)` as a one-shot's first statement: its listing is sent while the channel's
/// catalog is read and the statement checked (`CommandAhead`), and its answer is used only by the
/// statement that passes the check and sends that very request.
@MainActor
@Suite("download: the listing sent ahead of the catalog check", .serialized)
struct DownloadAheadTests {
    /// Runs `text` in a new session on `server` as a one-shot does: its first statement's first
    /// request sent ahead (when `ahead`), the catalog read, then the script.
    func oneShot(
        _ text: String, on server: DownloadServer, ahead: Bool
    ) async throws -> (code: Int32, output: String, errors: String) {
        let (session, output, errors) = try server.session()
        let parsed = Parser.parse(text, options: registry.parserOptions)
        if ahead, let first = parsed.statements.first { session.sendAhead(first) }
        try await session.checkChannelByCatalog()
        let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session)
        return (code, output.text, errors.text)
    }

    /// How many listings (`/items`, not the catalog's) the server has answered.
    func listings(_ server: DownloadServer) -> Int { server.answeredPaths().filter { $0 == "/items" }.count }

    @Test("a listing sent ahead gives byte-identical files and manifest, and is sent once")
    func sameFiles() async throws {
        let server = try DownloadServer()
        let ahead = temporaryFolder()
        let plain = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: ahead)
            try? FileManager.default.removeItem(atPath: plain)
        }
        func statement(_ folder: String) -> String {
            "download (list type=Image) rendition Medium format jpg to \"\(folder)\""
        }
        let first = try await oneShot(statement(ahead), on: server, ahead: true)
        #expect(first.code == 0, "\(first.errors)")
        #expect(listings(server) == 1, "the answer sent ahead was taken: the listing was not sent again")
        let second = try await oneShot(statement(plain), on: server, ahead: false)
        #expect(second.code == 0, "\(second.errors)")
        #expect(listings(server) == 2)
        #expect(
            first.output.replacingOccurrences(of: ahead, with: "OUT")
                == second.output.replacingOccurrences(of: plain, with: "OUT"))
        let names = folderEntries(ahead)
        #expect(names == folderEntries(plain))
        #expect(names.contains(".oceq-manifest.json"))
        #expect(names.filter { $0.hasSuffix(".jpg") }.count > 50, "\(names)")
        for name in names {
            let bytes = fileBytes(ahead + "/" + name)
            #expect(bytes != nil && bytes == fileBytes(plain + "/" + name), "\(name)")
        }
    }

    @Test("a paged listing (no limit) and a limited one are both taken from ahead")
    func pagedAndLimited() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let limited = try await oneShot(
            "download (list type=Image order name limit 3) to \"\(folder)\"", on: server, ahead: true)
        #expect(limited.code == 0, "\(limited.errors)")
        #expect(limited.output.contains("downloaded  3 files"), "\(limited.output)")
        #expect(listings(server) == 1)
        let first = try await oneShot(
            "download (first type=Image order name) native to \"\(folder)\" --force", on: server, ahead: true)
        #expect(first.code == 0, "\(first.errors)")
        #expect(listings(server) == 2)
    }

    @Test("a statement that fails the catalog check never uses the listing sent ahead, and writes nothing")
    func failedCheck() async throws {
        let server = try DownloadServer()
        let parent = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let folder = parent + "/never"
        let result = try await oneShot(
            "download (list type=Imag) rendition Medium format jpg to \"\(folder)\"", on: server, ahead: true)
        #expect(result.code != 0)
        #expect(result.errors.contains("Imag"), "\(result.errors)")
        #expect(result.output == "")
        #expect(!FileManager.default.fileExists(atPath: folder), "no folder made")
        #expect(listings(server) <= 1, "only the request sent ahead; it was not sent again")
        #expect(!server.answeredPaths().contains { $0.hasPrefix("/assets/") }, "no file requested")
    }

    @Test("the oceq binary sends a download's listing while the catalog is still being answered")
    func binarySendsAhead() async throws {
        // The catalog's answer is held until the listing arrives (at most 20 s): a client that sends the
        // listing only after reading the catalog is held the whole time, and the flag stays false.
        let listingArrived = DispatchSemaphore(value: 0)
        let sawListingFirst = Locked(false)
        let server = try DownloadServer(arrived: { path in
            if path == "/items" { listingArrived.signal() }
            if path.hasPrefix("/metadata-catalog") {
                let arrived = listingArrived.wait(timeout: .now() + 20) == .success
                sawListingFirst.withLock { $0 = arrived }
            }
        })
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await OceqBinary.run([
            "--url", server.origin, "--token", DownloadServer.token, "-c",
            "download (list type=Image order name limit 2) to \"\(folder)\"",
        ])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("downloaded  2 files"), "\(result.stdout)")
        #expect(sawListingFirst.withLock { $0 }, "the listing arrived while the catalog was held")
        #expect(listings(server) == 1)
    }
}

/// A selection's listing that fails after its first items were handed to the pool: what was
/// downloaded stays complete and recorded, and the statement fails with the listing's error.
@MainActor
@Suite("download: a listing that fails part-way", .serialized)
struct ListingFailureTests {
    @Test("a second page refused: the first page's files are complete and recorded, the statement fails")
    func secondPageRefused() async throws {
        let export = try SyntheticExport(count: 503)
        defer { export.remove() }
        let server = try DownloadServer(
            export: export.path,
            replacing: { request in
                guard DownloadServer.apiPath(request) == "/items",
                    request.query.contains(where: { $0.name == "offset" && $0.value == "500" })
                else { return nil }
                return HTTPResponse(
                    status: 404, headers: [(name: "Content-Type", value: "application/json")],
                    body: .bytes(Array(#"{"title":"Not Found","status":404,"detail":"page gone"}"#.utf8)))
            })
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await server.run("download (list type=File) to $1", arguments: [folder])
        #expect(result.code != 0)
        let errorLines = result.errors.split(separator: "\n")
        #expect(errorLines.count == 1, "\(result.errors)")
        #expect(result.errors.contains("404"), "\(result.errors)")
        #expect(
            result.output.contains("download to \(folder): 500 items\n  downloaded  500 files, "), "\(result.output)")
        let entries = try manifestFiles(folder)
        #expect(entries.count == 500)
        let names = folderEntries(folder)
        #expect(names.count == 501, "500 files and the manifest, no part file")
        #expect(!names.contains { $0.hasSuffix(".part") })
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            #expect(Int64(fileBytes(folder + "/" + name)?.count ?? -1) == Int64(entry["size"]?.intValue ?? -2))
        }
    }

    @Test("a first page malformed part-way fails before anything is written: one line, no folder")
    func malformedFirstPage() async throws {
        let server = try DownloadServer(replacing: { request in
            guard DownloadServer.apiPath(request) == "/items" else { return nil }
            // A page whose third item is cut off mid-string.
            let body = #"{"hasMore":false,"count":3,"items":[{"id":"A","name":"a"},{"id":"B","name":"b"},{"id":"C","na"#
            return HTTPResponse(
                status: 200, headers: [(name: "Content-Type", value: "application/json")],
                body: .bytes(Array(body.utf8)))
        })
        let parent = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let folder = parent + "/never"
        let result = try await server.run("download (list type=Image) to $1", arguments: [folder])
        #expect(result.code != 0)
        #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        #expect(result.errors.contains("JSON"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(!server.answeredPaths().contains { $0.hasPrefix("/assets/") })
    }
}
