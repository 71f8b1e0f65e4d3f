// The bundled sample channel (`Samples/OCEGettingStarted`) served in-process by `oceq serve`'s own
// pieces (`ChannelService.load`, `DeliveryRouter`, `FaultInjector`, `HTTPServer`) on an ephemeral
// port of 127.0.0.1, for DeliveryKit's real libcurl transport to talk to.
//
// The handler chain, outermost first: a recorder that keeps every request the server saw (its
// headers included, so tests can check what the client sent), then the fault injector when a
// `FaultPlan` is given (optionally only for the first N requests under a path), then the router.

import ChannelServer
import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore

/// What the server saw of one request.
struct SeenRequest: Sendable {
    var method: String
    /// The raw target, channel token included.
    var target: String
    /// The path under `/content/published/api/v1.1` (`/items`, `/assets/CONT…/native`).
    var apiPath: String
    var headers: [String: String]
    /// The status the handler answered (a fault's status when one was injected).
    var status: Int

    /// The value of a request header (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// Faults to inject, in `oceq serve --faults` syntax.
struct FaultPlan: Sendable {
    /// The `--faults` spec.
    var spec: String
    /// `--fault-seed`.
    var seed: UInt64 = 1
    /// Only requests whose API path starts with this are offered to the injector.
    var pathPrefix = "/"
    /// When set, only the first N requests under `pathPrefix` (after `skip`) are offered to the injector.
    var firstRequests: Int?
    /// The first requests under `pathPrefix` that are answered without faults (a later page, say).
    var skip = 0
}

/// `oceq serve` on the sample channel, started on port 0 and stopped when released.
final class SampleServer: @unchecked Sendable {
    static let token = "e2e-token-7d41c9"

    static var sampleFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/OCEGettingStarted")
            .path
    }

    /// The folder of the sample's content items.
    static var contentItems: String { sampleFolder + "/contentexport/ContentItems" }

    let service: ChannelService
    let server: HTTPServer
    let cacheDirectory: String
    let token: String
    let bearer: String?
    private let seen = Recorder<SeenRequest>()
    private let logLines = Recorder<String>()

    var port: Int { server.port }

    /// `http://127.0.0.1:<port>`
    var origin: String { "http://127.0.0.1:\(port)" }

    init(token: String = SampleServer.token, bearer: String? = nil, faults: FaultPlan? = nil) throws {
        self.token = token
        self.bearer = bearer
        cacheDirectory = NSTemporaryDirectory() + "oceq-e2e-\(UUID().uuidString)"
        var options = ServeOptions()
        options.paths = [SampleServer.sampleFolder]
        options.token = Secret(token)
        options.bearer = bearer.map { Secret($0) }
        options.cacheDirectory = cacheDirectory
        options.quiet = true
        service = try ChannelService.load(options)

        let router = service.router
        var handler: HTTPServer.Handler = { router.handle($0) }
        if let faults {
            let lines = logLines
            let injector = FaultInjector(spec: try FaultSpec.parse(faults.spec), seed: faults.seed) { line in
                lines.append(line)
            }
            let faulty = injector.wrap(handler)
            let direct = handler
            let offered = Counter()
            handler = { request in
                guard SampleServer.apiPath(of: request).hasPrefix(faults.pathPrefix) else { return direct(request) }
                let count = offered.increment() - faults.skip
                if count <= 0 { return direct(request) }
                if let first = faults.firstRequests, count > first { return direct(request) }
                return faulty(request)
            }
        }
        let inner = handler
        let seen = self.seen
        handler = { request in
            let response = inner(request)
            seen.append(
                SeenRequest(
                    method: request.method, target: request.target, apiPath: SampleServer.apiPath(of: request),
                    headers: request.headers, status: response.status))
            return response
        }
        let lines = logLines
        let log = AccessLog { line in lines.append(line) }
        server = try HTTPServer(
            host: "127.0.0.1", port: 0, threads: 4, handler: handler, observer: { log.record($0) })
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: cacheDirectory)
    }

    /// Every request seen so far, in the order they were answered.
    var requests: [SeenRequest] { seen.all }

    /// The access-log lines and fault-injection lines the server wrote.
    var log: [String] { logLines.all }

    /// A client of this server over a new `CurlTransport`.
    func client(
        token: String? = nil, bearer: String? = nil, retry: RetryPolicy = .none, clock: any RetryClock = FakeClock(),
        log: (@Sendable (RequestLogEntry) -> Void)? = nil
    ) throws -> DeliveryClient {
        var configuration = try DeliveryConfiguration(
            url: origin, channelToken: token ?? self.token, bearerToken: bearer ?? self.bearer)
        configuration.retry = retry
        configuration.requestLog = log
        return DeliveryClient(configuration: configuration, transport: CurlTransport(), clock: clock)
    }

    static func apiPath(of request: ChannelServer.ServerRequest) -> String {
        "/" + request.pathSegments.dropFirst(DeliveryRouter.prefix.count).joined(separator: "/")
    }
}

/// An item of the sample channel as its export file on disk describes it (the test's ground truth,
/// read without the server).
struct SampleAsset: Sendable {
    var id: String
    var type: String
    var name: String
    var slug: String?
    var width: Int?
    var height: Int?

    /// The native file in the export.
    var nativePath: String { SampleServer.contentItems + "/\(type)/files/\(id)/\(name)" }

    /// Every item file of one type folder, sorted by id.
    static func all(type: String) throws -> [SampleAsset] {
        let folder = SampleServer.contentItems + "/" + type
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
            .map { file in
                let json = try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
                return SampleAsset(
                    id: json["id"]!.stringValue!, type: type, name: json["name"]!.stringValue!,
                    slug: json["slug"]?.stringValue, width: json["fields"]?["metadata"]?["width"]?.intValue,
                    height: json["fields"]?["metadata"]?["height"]?.intValue)
            }
    }

    /// The sample's images.
    static func images() throws -> [SampleAsset] { try all(type: "Image") }
}
