// The built binary's stderr and messages (issue 20, points 7 and 8): an address holding a token is
// never echoed, `oceq serve` escapes every field of its access log (an unauthenticated client
// cannot inject OSC 52, a window title or a forged line), skipped export names are escaped, and a
// token that cannot be a secret is refused unless `--insecure-token` is given.

import Foundation
import Glibc
import OCEQTestSupport
import Testing

@Suite("End to end: no token echoed by an address, every line of the server's stderr escaped", .serialized)
struct ServeLogEscapingTests {
    static let token = "e2e-escape-token-4f1a"

    /// A scratch folder used as HOME, state, config and working directory.
    static func environment(_ root: String) -> [String: String?] {
        ["HOME": root, "XDG_STATE_HOME": root + "/state", "XDG_CONFIG_HOME": root + "/config", "OCEQ_URL": nil]
    }

    @Test("--url with a token in the user part or the query: the error never echoes it")
    func addressesDoNotEcho() async throws {
        let root = TestTemporary.path("oceq-address")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        for url in ["http://u:TOKEN5e3a1f@127.0.0.1:9", "http://127.0.0.1:9/?channelToken=TOKEN5e3a1f"] {
            let run = try await MeasuredRun.run(
                ["--url", url, "-c", "count"], environment: Self.environment(root), directory: root, timeLimit: 60)
            #expect(run.code != 0)
            #expect(!run.stderrText.contains("5e3a1f") && !run.stdoutText.contains("5e3a1f"), "\(run.stderrText)")
            #expect(run.stderrText.contains("REDACTED"), "\(run.stderrText)")
        }
    }

    @Test("a hostile method and a hostile export file name reach stderr escaped")
    func hostileFieldsEscaped() async throws {
        let root = TestTemporary.path("oceq-escape")
        let export = root + "/export"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.copyItem(
            atPath: OceqBinary.repositoryRoot.path + "/Samples/OCEGettingStarted", toPath: export)
        let hostileName = "bad\u{1B}]0;pwned\u{07}\u{9B}2J.json"
        try Data("not json".utf8).write(
            to: URL(fileURLWithPath: export + "/contentexport/ContentItems/OCEGettingStartedTopic/" + hostileName))
        let server = try await ServeProcess(
            export: export, arguments: ["--token", Self.token], logFolder: root + "/serve")
        // An unauthenticated client sends a method carrying OSC 52 and a CR that forges a line.
        let method = "GET\u{1B}]52;c;ZXZpbA==\u{07}\r127.0.0.1 GET /forged 200 0 0.00ms"
        try await Self.deliver(
            "\(method) /content/published/api/v1.1/items HTTP/1.1\r\nHost: x\r\n\r\n", port: server.port)
        // A request with the token, whose id holds the token's text: the id is logged as it is.
        try await Self.deliver(
            "GET /content/published/api/v1.1/items/X\(Self.token)X?channelToken=\(Self.token) HTTP/1.1\r\n"
                + "Host: x\r\nConnection: close\r\n\r\n", port: server.port)
        server.stop()
        let log = (try? String(contentsOfFile: server.stderrPath, encoding: .utf8)) ?? ""
        #expect(
            !log.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
            "\(log)")
        // The file's line names it (escaped) and what became of it, once: "oceq serve: FILE: REASON; skipped".
        let fileLine = log.split(separator: "\n").first { $0.contains("bad\\x1b]0;pwned\\x07\\x9b2J.json") }
        #expect(fileLine?.hasPrefix("oceq serve: /") == true && fileLine?.hasSuffix("skipped") == true, "\(log)")
        #expect(log.contains("; 1 problem (above);"), "\(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("127.0.0.1 GET /forged") }, "\(log)")
        // The hostile request was logged on one line, method and target escaped (libmicrohttpd splits
        // the request line at its last spaces, so the forged part lands in the target).
        #expect(log.contains("127.0.0.1 GET\\x1b]52;c;ZXZpbA==\\x07\\x0d127.0.0.1 GET\\x20/forged\\x20200"), "\(log)")
        #expect(log.contains("/items/X\(Self.token)X?channelToken=REDACTED "), "\(log)")
    }

    @Test("oceq serve refuses a token shorter than 8 characters in one line, exit 2")
    func weakTokenRefused() async throws {
        let root = TestTemporary.path("oceq-weak")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try await MeasuredRun.run(
            ["serve", OceqBinary.repositoryRoot.path + "/Samples/OCEGettingStarted", "--token", "test", "--port", "0"],
            environment: Self.environment(root), directory: root, timeLimit: 60)
        #expect(run.code == 2)
        #expect(run.stderrText.hasPrefix("oceq serve: --token is shorter than 8 characters"), "\(run.stderrText)")
    }

    /// Writes `request` to the server on loopback and reads until it closes (or 5 s pass).
    static func deliver(_ request: String, port: Int) async throws {
        _ = try await RawHTTPClient.exchange(port: port, bytes: Array(request.utf8), timeout: 5, halfClose: true)
    }
}
