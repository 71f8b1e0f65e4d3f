import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("oceq serve, the command")
struct ServeCommandTests {
    @Test("the binary prints its port, serves, logs without the token, and stops cleanly on SIGTERM")
    func lifecycle() async throws {
        let cache = NSTemporaryDirectory() + "oceq-cli-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let server = try await OceqProcess.Server([
            TestChannel.fixtureZip, "--token", "s3cr3t-t0ken", "--cache-dir", cache,
        ])
        #expect(server.port > 0)
        let response = try await RawHTTPClient.send(
            port: server.port, target: "/content/published/api/v1.1/items?limit=2&channelToken=s3cr3t-t0ken")
        #expect(response.status == 200)
        let (status, log) = await server.stop()
        #expect(status == 0)
        #expect(log.contains("29 items"))
        #expect(log.contains("/content/published/api/v1.1/items?limit=2&channelToken=REDACTED 200"))
        #expect(!log.contains("s3cr3t-t0ken"))
    }

    @Test("a path that is not an export fails at start with a message naming it")
    func badPath() async throws {
        let result = try await OceqProcess.run(["serve", "/nonexistent/export.zip", "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/export.zip"))
        let usage = try await OceqProcess.run(["serve", "--bogus"])
        #expect(usage.status == 2)
    }
}
