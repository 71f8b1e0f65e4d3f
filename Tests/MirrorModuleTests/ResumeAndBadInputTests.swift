// A rerun transfers nothing, an interrupted mirror resumes, a target that cannot be written stops
// the mirror before any request, and a hostile server's ids and names write nothing outside DIR.

import DeliveryKit
import DeliveryTransport
import Foundation
import MirrorModule
import OCEQCore
import OCEQShell
import Testing

@Suite("mirror: resume and bad input", .serialized)
struct ResumeAndBadInputTests {
    static let samplePath = repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path

    @Test("a rerun fetches no file and rewrites no item; a removed or partial file is fetched again")
    func rerunAndResume() async throws {
        let folder = temporaryFolder("resume")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try openExport(Self.samplePath)
        let selection = "(list type=OCEGettingStartedAuthor or type=Image)"

        let first = await runScript("mirror \"\(folder)\" \(selection)", on: source)
        #expect(first.code == 0, "\(first.output)\(first.errors)")
        #expect(first.output.contains("mirrored 78 items (78 written, 0 unchanged), 74 files (74 fetched, 0 already"))
        _ = source.takeLog()

        let second = await runScript("mirror \"\(folder)\" \(selection)", on: source)
        #expect(second.code == 0)
        #expect(
            second.output.contains("78 items (0 written, 78 unchanged), 74 files (0 fetched, 74 already complete, 0 B)")
        )
        #expect(!source.takeLog().contains { $0.url.contains("/assets/") }, "a rerun fetched a native file")

        // Interrupt: one file gone, one cut to a `.part` with half its bytes.
        let natives = filesUnder(folder + "/contentexport").filter { $0.contains("/files/") }
        let gone = folder + "/contentexport/" + natives[0]
        let cut = folder + "/contentexport/" + natives[1]
        let whole = try #require(FileManager.default.contents(atPath: cut))
        try FileManager.default.removeItem(atPath: gone)
        try FileManager.default.removeItem(atPath: cut)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut + ".part"))
        // A file left under an older name of the asset goes when the asset is fetched again.
        let oldName = (gone as NSString).deletingLastPathComponent + "/renamed-since.jpg"
        try Data("old".utf8).write(to: URL(fileURLWithPath: oldName))

        let third = await runScript("mirror \"\(folder)\" \(selection)", on: source)
        #expect(third.code == 0, "\(third.output)\(third.errors)")
        #expect(third.output.contains("74 files (2 fetched, 72 already complete"))
        #expect(FileManager.default.contents(atPath: cut) == whole)
        #expect(!FileManager.default.fileExists(atPath: cut + ".part"))
        let original = FileManager.default.contents(
            atPath: Self.samplePath + "/contentexport/" + natives[0])
        #expect(FileManager.default.contents(atPath: gone) == original)
        #expect(!FileManager.default.fileExists(atPath: oldName))
    }

    @Test("a target that cannot be created, or another tool's export, stops the mirror before any request")
    func unwritableTarget() async throws {
        let folder = temporaryFolder("target")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/plain-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let source = try openExport(Self.samplePath)
        _ = source.takeLog()

        let run = await runScript("mirror \"\(file)/sub\"", on: source)
        #expect(run.code == 1)
        #expect(run.errors.contains("cannot create \(file)/sub"), "\(run.errors)")
        #expect(source.takeLog().isEmpty, "requests were sent")

        let over = await runScript("mirror \"\(file)\"", on: source)
        #expect(over.code == 1)
        #expect(over.errors.contains("exists and is not a folder"), "\(over.errors)")

        // The sample export itself (or any export oceq did not write) is never written over.
        let sample = await runScript("mirror \"\(Self.samplePath)\"", on: source)
        #expect(sample.code == 1)
        #expect(sample.errors.contains("holds an export that oceq mirror did not write"), "\(sample.errors)")

        // Nor a folder that holds anything else (a QA run mirrored into a folder of downloads).
        let busy = await runScript("mirror \"\(folder)\"", on: source)
        #expect(busy.code == 1)
        #expect(busy.errors.contains("is not empty and holds no mirror"), "\(busy.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/channel.json"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/contentexport"))
        #expect(source.takeLog().isEmpty, "requests were sent")
    }

    @Test("ids, types and names from a hostile server write nothing outside DIR")
    func hostileServer() async throws {
        let folder = temporaryFolder("hostile")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/mirror"
        let stub = StubTransport { request in
            if request.url.contains("/assets/") {
                return .response(status: 200, headers: [HTTPHeader("Content-Length", "5")], body: Array("hello".utf8))
            }
            return .json(Self.hostilePage)
        }
        let client = DeliveryClient(
            configuration: try DeliveryConfiguration(url: "https://evil.example.com", channelToken: "sekrit-token"),
            transport: stub)
        let connection = Connection(client: client, channelName: "evil")

        let run = await runScript("mirror \"\(target)\"", on: connection)
        #expect(run.code == 1)
        #expect(run.output.contains("skipped 3:"), "\(run.output)")
        #expect(run.errors.contains("problems"), "\(run.errors)")

        // Only DIR gained files; the asset with a hostile name got a file named after its id.
        #expect(filesUnder(folder).allSatisfy { $0.hasPrefix("mirror/") }, "\(filesUnder(folder))")
        let files = filesUnder(target)
        #expect(files.contains("contentexport/ContentItems/Image/files/CONT01/CONT01.jpg"), "\(files)")
        #expect(files.contains("contentexport/ContentItems/Image/CONT01.json"))
        #expect(!files.contains { $0.contains("..") })
        for file in files {
            let text = String(
                decoding: FileManager.default.contents(atPath: target + "/" + file) ?? Data(), as: UTF8.self)
            // Content is written as it comes (the note is the server's text); no link keeps the token.
            let content = "see https://evil.example.com/?channelToken=sekrit-token"
            #expect(
                !text.replacingOccurrences(of: content, with: "").contains("sekrit-token"), "\(file) holds the token")
        }
    }

    @Test("a native file the server will not give fails the run, with a summary; no partial file remains")
    func failedFile() async throws {
        let folder = temporaryFolder("failed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stub = StubTransport { request in
            if request.url.contains("/assets/") { return .json(#"{"title":"gone"}"#, status: 404) }
            if request.url.contains("/variations/") { return .json(#"{"title":"none"}"#, status: 404) }
            return .json(
                """
                {"items":[{"id":"CONT01","type":"Image","typeCategory":"DigitalAssetType","name":"a.jpg",
                 "fileExtension":"jpg","mimeType":"image/jpeg","fileGroup":"Images","fields":{"size":5}}],
                 "hasMore":false,"count":1,"offset":0,"limit":100,"totalResults":1}
                """)
        }
        let client = DeliveryClient(
            configuration: try DeliveryConfiguration(url: "https://cms.example.com", channelToken: "0123456789abcdef"),
            transport: stub
        )
        let run = await runScript("mirror \"\(folder)\"", on: Connection(client: client, channelName: "c"))
        #expect(run.code == 1)
        #expect(
            run.output.contains(
                "1 item (1 written, 0 unchanged), 1 file (0 fetched, 0 already complete, 1 failed, 0 B)"),
            "\(run.output)")
        #expect(run.output.contains("failed 1:\n  \(folder)/contentexport/ContentItems/Image/files/CONT01/a.jpg"))
        #expect(run.errors.contains("1 problem (listed above); run it again to resume"), "\(run.errors)")
        #expect(filesUnder(folder + "/contentexport/ContentItems/Image/files").isEmpty)
    }

    /// Three items a server must not be trusted with, and one good asset with a hostile name.
    static let hostilePage = """
        {"items":[
          {"id":"../../escape","type":"Image","typeCategory":"DigitalAssetType","name":"a.jpg","fields":{}},
          {"id":"CORE02","type":"../../Types","typeCategory":"ContentType","name":"x","fields":{}},
          {"id":"CORE03/..","type":"Article","typeCategory":"ContentType","name":"x","fields":{}},
          {"id":"CONT01","type":"Image","typeCategory":"DigitalAssetType","name":"../../../etc/passwd.jpg",
           "fileExtension":"jpg","mimeType":"image/jpeg","fileGroup":"Images",
           "links":[{"href":"https://evil.example.com/items/CONT01?channelToken=sekrit-token","rel":"self"}],
           "fields":{"size":5,"note":"see https://evil.example.com/?channelToken=sekrit-token",
                     "native":{"links":[{"href":"https://evil.example.com/x?channelToken=sekrit-token"}]}}}
        ],"hasMore":false,"count":4,"offset":0,"limit":100,"totalResults":4}
        """
}
