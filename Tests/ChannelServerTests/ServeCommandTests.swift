import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

@Suite("oceq serve, the command")
struct ServeCommandTests {
    @Test("options parse, with suggestions for typos and an error for a missing export")
    func options() throws {
        let options = try ServeOptions.parse(["x.zip", "--port=0", "--token", "T", "--strict", "y"])
        #expect(options.paths == ["x.zip", "y"])
        #expect(options.port == 0 && options.token == "T" && options.strict)
        #expect(throws: UsageError("unknown option '--prot'; did you mean '--port'?")) {
            try ServeOptions.parse(["x", "--prot", "1"])
        }
        #expect(throws: UsageError("no export given: name an export folder or zip")) { try ServeOptions.parse([]) }
        #expect(throws: UsageError("--port must be a number from 0 to 65535, got '70000'")) {
            try ServeOptions.parse(["x", "--port", "70000"])
        }
        let secure = try ServeOptions.parse(["x"], environment: ["OCEQ_SERVE_BEARER": "b"])
        #expect(secure.bearer == "b")
    }

    @Test("the binary prints its port, serves, logs without the token, and stops cleanly on SIGTERM")
    func lifecycle() throws {
        let cache = NSTemporaryDirectory() + "oceq-cli-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try OceqProcess.Server([TestChannel.fixtureZip, "--token", "s3cr3t-t0ken", "--cache-dir", cache])
        #expect(server.port > 0)
        let response = try RawHTTPClient.send(
            port: server.port, target: "/content/published/api/v1.1/items?limit=2&channelToken=s3cr3t-t0ken")
        #expect(response.status == 200)
        let (status, log) = server.stop()
        #expect(status == 0)
        #expect(log.contains("29 items"))
        #expect(log.contains("/content/published/api/v1.1/items?limit=2&channelToken=REDACTED 200"))
        #expect(!log.contains("s3cr3t-t0ken"))
    }

    @Test("a path that is not an export fails at start with a message naming it")
    func badPath() throws {
        let result = try OceqProcess.run(["serve", "/nonexistent/export.zip", "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/export.zip"))
        let usage = try OceqProcess.run(["serve", "--bogus"])
        #expect(usage.status == 2)
    }
}
