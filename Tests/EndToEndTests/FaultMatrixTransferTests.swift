// The fault matrix's transfer rows (the `BinaryFaultRow`s of FaultMatrixBinaryTests): a bulk
// `download` and a `mirror` through the built binary, against `oceq serve --faults` in its own process, for each fault kind. A retried fault hits 8 % of the file
// requests (few enough that four attempts always get through); a fault that cannot be retried hits
// every request. Each case checks the exit code, the one-line message, that no `.part` file is left,
// that every file under a final name is whole (the manifest's size), and that the token is never shown.

import Foundation
import OCEQTestSupport
import Testing

@Suite("End to end: bulk download and mirror under each fault kind", .serialized)
struct FaultMatrixTransferTests {
    static let token = "transfer-token-91c2"
    static let cache = TestTemporary.shared("oceq-transfer-cache")
    static let images = 12

    static let rows: [BinaryFaultRow] = [
        BinaryFaultRow(name: "503", spec: "503@8%:retry-after=0:path=/assets"),
        BinaryFaultRow(name: "500", spec: "500@8%:path=/assets"),
        BinaryFaultRow(name: "429 Retry-After", spec: "429@8%:retry-after=0:path=/assets"),
        BinaryFaultRow(name: "reset mid-body", spec: "reset@8%:after=100:path=/assets"),
        BinaryFaultRow(name: "truncated body", spec: "truncate@8%:path=/assets"),
        BinaryFaultRow(name: "delayed first byte", spec: "delay@30%:ms=150"),
        BinaryFaultRow(name: "refused connection", spec: nil, failure: "connection refused"),
        BinaryFaultRow(name: "malformed JSON", spec: "malformed", failure: "malformed JSON"),
        BinaryFaultRow(name: "401", spec: "401", failure: "401"),
        BinaryFaultRow(name: "403", spec: "403", failure: "403"),
        BinaryFaultRow(name: "404", spec: "404", failure: "404"),
    ]

    /// Starts the server of `row` and returns its origin; for a row without a server, the origin of
    /// `closed`, a port nothing listens on (held by the caller, so no other test's server takes it).
    static func origin(for row: BinaryFaultRow, closed: ClosedPort) async throws -> (String, ServeProcess?) {
        let sample = OceqBinary.repositoryRoot.path + "/Samples/OCEGettingStarted"
        guard let spec = row.spec else { return ("http://127.0.0.1:\(closed.port)", nil) }
        let server = try await ServeProcess(
            export: sample, arguments: ["--token", token, "--faults", spec, "--fault-seed", "11"],
            cacheDirectory: cache)
        return (server.origin, server)
    }

    /// Every regular file under `folder`, relative paths.
    static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
            {
                found.append(path)
            }
        }
        return found
    }

    static func expectOutcome(
        _ run: (code: Int32, stdout: String, stderr: String), _ row: BinaryFaultRow, _ what: String
    ) {
        if let failure = row.failure {
            #expect(run.code == 1, "\(what): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(what): one line, got \(run.stderr)")
            #expect(run.stderr.contains(failure), "\(what): \(run.stderr)")
        } else {
            #expect(run.code == 0, "\(what): \(run.stderr)")
        }
        #expect(!(run.stdout + run.stderr).contains(token), "\(what) showed the token")
    }

    @Test("download (list type=Image limit 12): whole files or none, the manifest consistent", arguments: rows)
    func download(_ row: BinaryFaultRow) async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let (origin, server) = try await Self.origin(for: row, closed: closed)
        defer { server?.stop() }
        let folder = TestTemporary.path("oceq-transfer-download")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try await OceqBinary.run([
            "--url", origin, "--token", Self.token, "--color", "never",
            "-c", "download (list type=Image order by name limit \(Self.images)) to \(folder)",
        ])
        Self.expectOutcome(run, row, "download")
        let files = Self.files(under: folder)
        #expect(!files.contains { $0.hasSuffix(".part") }, "parts left: \(files)")
        let downloaded = files.filter { $0 != ".oceq-manifest.json" }
        // The manifest lists exactly the files under their final names, each at its full size.
        var listed: [String: Int] = [:]
        if let data = FileManager.default.contents(atPath: folder + "/.oceq-manifest.json") {
            let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            for entry in manifest["files"] as? [[String: Any]] ?? [] {
                listed[entry["file"] as? String ?? "", default: -1] = entry["size"] as? Int ?? -1
            }
            #expect(!String(decoding: data, as: UTF8.self).contains(Self.token))
        }
        #expect(Set(listed.keys) == Set(downloaded), "manifest \(listed.keys.sorted()) vs \(downloaded.sorted())")
        for (name, size) in listed {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            #expect((attributes[.size] as? Int) == size, "\(name) is not whole")
        }
        #expect(downloaded.count == (row.failure == nil ? Self.images : 0), "\(downloaded)")
        if let server, row.failure == nil, row.spec?.contains("@8%") == true {
            #expect(server.output.contains("oceq serve: fault: "), "no fault was injected")
        }
    }

    @Test("mirror --query type=OCEGettingStartedTopic: complete, or failed with nothing half-written", arguments: rows)
    func mirror(_ row: BinaryFaultRow) async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let (origin, server) = try await Self.origin(for: row, closed: closed)
        defer { server?.stop() }
        let folder = TestTemporary.path("oceq-transfer-mirror")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try await OceqBinary.run([
            "--url", origin, "--token", Self.token, "--color", "never",
            "mirror", folder, "--query", "type=OCEGettingStartedTopic",
        ])
        Self.expectOutcome(run, row, "mirror")
        let files = Self.files(under: folder)
        #expect(!files.contains { $0.hasSuffix(".part") }, "parts left: \(files)")
        for file in files {
            let data = FileManager.default.contents(atPath: folder + "/" + file) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains(Self.token), "\(file) holds the token")
        }
        if row.failure == nil {
            // The 7 topics and their 7 thumbnails, with every native file.
            #expect(run.stdout.contains("mirrored 14 items"), "\(run.stdout)")
            #expect(run.stdout.contains("7 files"), "\(run.stdout)")
        } else {
            #expect(!run.stdout.contains("mirrored 14 items"), "\(run.stdout)")
        }
    }

    @Test("every file request fails for good: both fail, name each file, and leave no file half-written")
    func filesFailForGood() async throws {
        let row = BinaryFaultRow(name: "503 on every file", spec: "503:retry-after=0:path=/assets")
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let (origin, server) = try await Self.origin(for: row, closed: closed)
        defer { server?.stop() }
        let folder = TestTemporary.path("oceq-transfer-fail")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let download = try await OceqBinary.run([
            "--url", origin, "--token", Self.token, "--color", "never",
            "-c", "download (list type=Image order by name limit 3) to \(folder)/download",
        ])
        #expect(download.code == 1)
        #expect(download.stdout.contains("failed      3 files"), "\(download.stdout)")
        #expect(Self.files(under: folder + "/download") == [".oceq-manifest.json"])
        // The manifest lists no file.
        let manifest = FileManager.default.contents(atPath: folder + "/download/.oceq-manifest.json") ?? Data()
        let object = try JSONSerialization.jsonObject(with: manifest) as? [String: Any]
        #expect((object?["files"] as? [Any])?.isEmpty == true, "\(String(decoding: manifest, as: UTF8.self))")
        let mirror = try await OceqBinary.run([
            "--url", origin, "--token", Self.token, "--color", "never",
            "mirror", folder + "/mirror", "--query", "type=OCEGettingStartedTopic",
        ])
        #expect(mirror.code == 1)
        #expect(mirror.stdout.contains("7 failed"), "\(mirror.stdout)")
        #expect(mirror.stderr.contains("run it again to resume"), "\(mirror.stderr)")
        let written = Self.files(under: folder + "/mirror")
        #expect(!written.contains { $0.contains("/files/") }, "native files written: \(written)")
        #expect(!written.contains { $0.hasSuffix(".part") })
        for output in [download.stdout, download.stderr, mirror.stdout, mirror.stderr] {
            #expect(!output.contains(Self.token))
        }
    }
}
