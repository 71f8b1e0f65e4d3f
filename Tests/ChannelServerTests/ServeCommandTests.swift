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
        let server = try await ServeProcess(export: TestChannel.fixtureZip, arguments: ["--token", "s3cr3t-t0ken"])
        #expect(server.port > 0)
        let response = try await RawHTTPClient.send(
            port: server.port, target: "/content/published/api/v1.1/items?limit=2&channelToken=s3cr3t-t0ken")
        #expect(response.status == 200)
        #expect(server.stop() == .exit(0))
        let log = server.errors
        #expect(log.contains("29 items"))
        #expect(log.contains("/content/published/api/v1.1/items?limit=2&channelToken=REDACTED 200"))
        #expect(!log.contains("s3cr3t-t0ken"))
    }

    @Test("a path that is not an export fails at start with a message naming it")
    func badPath() async throws {
        let result = try await OceqBinary.run(["serve", "/nonexistent/export.zip", "--port", "0"])
        #expect(result.code == 1)
        #expect(result.stderr.contains("/nonexistent/export.zip"))
        let usage = try await OceqBinary.run(["serve", "--bogus"])
        #expect(usage.code == 2)
    }
}
