import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport

/// The 2021 BlogTemplate export served in-process on an ephemeral loopback port.
final class TestChannel: @unchecked Sendable {
    static let token = "test-token-0c3a"
    static let prefix = "/content/published/api/v1.1"

    let service: ChannelService
    let server: HTTPServer
    let cacheDirectory: String
    var port: Int { server.port }

    /// Path of the 2021 fixture zip inside the test bundle.
    static var fixtureZip: String {
        Bundle.module.url(
            forResource: "BlogTemplate-2021-export", withExtension: "zip", subdirectory: "Fixtures/exports")!
            .path
    }

    init(bearer: String? = nil, paths: [String]? = nil, responseCacheMiB: Int = 32, cors: [String] = []) throws {
        cacheDirectory = NSTemporaryDirectory() + "oceq-test-\(UUID().uuidString)"
        var options = ServeOptions()
        options.paths = paths ?? [TestChannel.fixtureZip]
        options.token = Secret(TestChannel.token)
        options.bearer = bearer.map { Secret($0) }
        options.cacheDirectory = cacheDirectory
        options.responseCacheMiB = responseCacheMiB
        options.corsOrigins = cors
        service = try ChannelService.load(options)
        let router = service.router
        server = try HTTPServer(port: 0, threads: 4, handler: { router.handle($0) })
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: cacheDirectory)
    }

    /// GET `path` (relative to the API prefix) with the channel token appended unless `token` is nil.
    func get(
        _ path: String, token: String? = TestChannel.token, headers: [String: String] = [:], method: String = "GET"
    )
        async throws -> RawHTTPResponse
    {
        var target = TestChannel.prefix + path
        if let token { target += (target.contains("?") ? "&" : "?") + "channelToken=\(token)" }
        return try await RawHTTPClient.send(port: port, method: method, target: target, headers: headers)
    }

    /// GET and parse the JSON body.
    func json(_ path: String) async throws -> JSON {
        let response = try await get(path)
        return try JSON.parse(response.body)
    }
}
