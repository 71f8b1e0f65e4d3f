// A channel for the download tests: an export (the bundled sample, or a synthetic one of N small
// files) served in-process by `oceq serve`'s own pieces on an ephemeral loopback port, optionally
// behind the fault injector, with every answered status recorded. A session over it runs
// `download` statements with a retry clock that never really sleeps.

import ChannelServer
import DeliveryKit
import DeliveryTransport
import DownloadModule
import Foundation
import OCEQCore
import OCEQShell
import OCEQTestSupport
import Testing

/// The repository's root folder.
let repositoryRoot = OceqBinary.repositoryRoot

/// The bundled sample channel.
let sampleExport = repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path

/// The core commands and `download`.
let registry: CommandRegistry = {
    do {
        return try CommandRegistry(modules: [CoreModule.module, DownloadModule.module])
    } catch {
        fatalError("\(error)")
    }
}()

/// An export served on 127.0.0.1 (port 0), stopped when released.
final class DownloadServer: @unchecked Sendable {
    static let token = "dl-test-token-5e1f"

    let service: ChannelService
    let server: HTTPServer
    let cacheDirectory: String
    private let statuses = StatusLog()

    /// `http://127.0.0.1:<port>`
    var origin: String { "http://127.0.0.1:\(server.port)" }

    /// Serves `export`; `faults` (in `oceq serve --faults` syntax) apply to `/assets` requests only;
    /// `arrived`, when given, is called with each request's API path as it arrives, before it is answered
    /// (on one of the server's threads, which it may hold).
    /// `replacing`, when given, may answer a request in the export's place (nil: the export answers).
    init(
        export: String = sampleExport, faults: String? = nil, seed: UInt64 = 7,
        arrived: (@Sendable (String) -> Void)? = nil,
        replacing: (@Sendable (ChannelServer.ServerRequest) -> HTTPResponse?)? = nil
    ) throws {
        cacheDirectory = TestTemporary.path("oceq-dl-cache")
        var options = ServeOptions()
        options.paths = [export]
        options.token = Secret(DownloadServer.token)
        options.cacheDirectory = cacheDirectory
        options.quiet = true
        service = try ChannelService.load(options)
        let router = service.router
        var handler: HTTPServer.Handler = { router.handle($0) }
        if let faults {
            let injector = FaultInjector(spec: try FaultSpec.parse(faults), seed: seed) { _ in }
            let faulty = injector.wrap(handler)
            let direct = handler
            handler = { request in
                DownloadServer.apiPath(request).hasPrefix("/assets/") ? faulty(request) : direct(request)
            }
        }
        let inner = handler
        let statuses = self.statuses
        handler = { request in
            arrived?(DownloadServer.apiPath(request))
            let response = replacing?(request) ?? inner(request)
            statuses.list.withLock { $0.append((DownloadServer.apiPath(request), response.status)) }
            return response
        }
        server = try HTTPServer(host: "127.0.0.1", port: 0, threads: 8, handler: handler)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: cacheDirectory)
    }

    static func apiPath(_ request: ChannelServer.ServerRequest) -> String {
        "/" + request.pathSegments.dropFirst(DeliveryRouter.prefix.count).joined(separator: "/")
    }

    /// The statuses of `/assets` requests answered so far, and forgets them.
    func takeAssetStatuses() -> [Int] {
        statuses.list.withLock { list in
            defer { list.removeAll() }
            return list.filter { $0.path.hasPrefix("/assets/") }.map(\.status)
        }
    }

    /// The API paths of the requests answered so far (in the order their answers were made).
    func answeredPaths() -> [String] { statuses.list.withLock { $0.map(\.path) } }

    /// A session on this server writing to memory, its transport set by `transport`; retries never really wait.
    @MainActor
    func session(
        retry: RetryPolicy = RetryPolicy(maxAttempts: 10, maxTotalTime: 3600, random: { 0.5 }),
        transport: CurlTransport.Options = CurlTransport.Options()
    )
        throws -> (Session, MemoryOutput, MemoryOutput)
    {
        var configuration = try DeliveryConfiguration(url: origin, channelToken: DownloadServer.token)
        configuration.retry = retry
        let client = DeliveryClient(
            configuration: configuration, transport: CurlTransport(options: transport), clock: InstantClock())
        let output = MemoryOutput(width: 120)
        let errors = MemoryOutput()
        let session = Session(
            registry: registry, connection: Connection(client: client, channelName: "test"), output: output,
            errors: errors, baseDirectory: repositoryRoot.path)
        return (session, output, errors)
    }

    /// Runs `text` as a script in a new session; exit code, stdout and stderr.
    @MainActor
    func run(
        _ text: String, arguments: [String] = [],
        retry: RetryPolicy = RetryPolicy(maxAttempts: 10, maxTotalTime: 3600, random: { 0.5 })
    ) async throws -> (code: Int32, output: String, errors: String) {
        let (session, output, errors) = try session(retry: retry)
        session.arguments = arguments
        let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session)
        return (code, output.text, errors.text)
    }
}

/// The API paths and statuses a server answered.
final class StatusLog: Sendable {
    let list = Locked<[(path: String, status: Int)]>([])
}

/// A retry clock whose sleeps return at once.
final class InstantClock: RetryClock {
    private let elapsed = Locked<Double>(0)
    func now() -> Double { elapsed.withLock { $0 } }
    func wallClock() -> Date { Date(timeIntervalSince1970: 1_700_000_000 + now()) }
    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        elapsed.withLock { $0 += seconds }
    }
}

/// A fresh folder under the temporary folder.
func temporaryFolder(_ label: String = "oceq-dl") -> String {
    TestTemporary.make(label)
}

/// Whether `name` in a download folder is a file under its final name: not a `.part`, not the manifest,
/// and not the manifest's temporary copy (`.oceq-manifest.json.tmp-PID`) that exists while it is replaced.
func isFinalFile(_ name: String) -> Bool {
    !name.hasSuffix(".part") && !name.hasPrefix(".oceq-manifest.json")
}

/// The names in `folder`, sorted (hidden ones included).
func folderEntries(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// A file's bytes, or nil.
func fileBytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}

/// The manifest of `folder` as JSON file entries (`file`, `assetId`, `size`, ...).
func manifestFiles(_ folder: String) throws -> [JSON] {
    let bytes = try #require(fileBytes(folder + "/.oceq-manifest.json"))
    return try #require(try JSON.parse(bytes)["files"]?.arrayValue)
}

/// Compares `actual` with `Tests/DownloadModuleTests/Golden/<name>`.
func expectGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    GoldenFile.expect(
        actual, named: name, in: repositoryRoot.appendingPathComponent("Tests/DownloadModuleTests/Golden"),
        sourceLocation: sourceLocation)
}
