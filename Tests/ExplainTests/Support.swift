// The harness of the explain tests: sessions with every module of the executable on the bundled
// sample channel (served in-process), statements run through the script runner, and a transport
// that records the URL of every request sent.

import AssetModule
import BlogModule
import DeliveryKit
import DeliveryTransport
import DownloadModule
import Foundation
import MirrorModule
import OCEQApp
import OCEQCore
import OCEQShell
import OCEQTestSupport

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Every module of the executable, as `Sources/oceq/main.swift` lists them.
let allModules = [
    CoreModule.module, BlogModule.module, AssetModule.module, DownloadModule.module, MirrorModule.module,
]

/// The registry of the executable.
let fullRegistry: CommandRegistry = try! CommandRegistry(modules: allModules)

/// A shell on its own in-process sample channel, writing to memory.
@MainActor
final class Shell {
    let session: Session
    let connection: Connection
    /// The connection that serves the export; `connection` sends through `recorder` to it.
    let served: Connection
    let recorder = RecordingTransport()
    let output: MemoryOutput
    let errors = MemoryOutput()

    /// A shell on the sample; with `unchecked`, as if the channel's catalog could not be read (and
    /// that was said already), so statements go to the server unchecked.
    init(terminal: Bool = false, unchecked: Bool = false) throws {
        let credentials = Credentials(
            url: repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path,
            channelToken: "935a30048d49b8479c9bc1577e392eba")
        served = try Connection.open(credentials, opener: InProcessServer())
        connection = Connection(
            client: DeliveryClient(configuration: served.client.configuration, transport: recorder),
            channelName: served.channelName)
        output = MemoryOutput(isTerminal: terminal, width: 80, height: 40)
        session = Session(
            registry: fullRegistry, connection: connection, output: output, errors: errors,
            baseDirectory: repositoryRoot.path)
        session.localExportOpener = InProcessServer()
        if unchecked { session.completionCache.store(ChannelCatalog.schemaFailedKey, true) }
    }

    /// Runs `text`; exit code, and what it printed on stdout and stderr.
    func run(_ text: String) async -> (code: Int32, output: String, errors: String) {
        let before = (output.text.count, errors.text.count)
        let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session)
        return (code, String(output.text.dropFirst(before.0)), String(errors.text.dropFirst(before.1)))
    }

    /// The URLs of the requests sent since the last call, in order.
    func sent() -> [String] { recorder.take() }
}

/// The descriptors of every registered command, in module order.
func allDescriptors() -> [CommandDescriptor] {
    var out: [CommandDescriptor] = []
    for module in allModules {
        for command in module.commands { out.append(command.descriptor) }
    }
    return out
}

/// A transport that records each request's URL and sends it with libcurl.
final class RecordingTransport: Transport {
    let base = CurlTransport()
    let urls = Locked<[String]>([])

    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransportError) -> HTTPResponseHead {
        urls.withLock { $0.append(request.url) }
        return try await base.perform(request, into: sink)
    }

    /// The URLs recorded since the last call.
    func take() -> [String] {
        urls.withLock { urls in
            defer { urls = [] }
            return urls
        }
    }
}

/// A shell whose channel answers every request with one status and JSON body.
@MainActor
final class StubShell {
    let session: Session
    let errors = MemoryOutput()

    init(status: Int, body: String) {
        let stub = StubTransport { _ in .json(body, status: status) }
        let configuration = try! DeliveryConfiguration(url: "http://127.0.0.1:9", channelToken: "stub-token")
        var quick = configuration
        quick.retry = RetryPolicy(maxAttempts: 1)
        let connection = Connection(client: DeliveryClient(configuration: quick, transport: stub), channelName: "stub")
        session = Session(
            registry: fullRegistry, connection: connection, output: MemoryOutput(), errors: errors,
            baseDirectory: repositoryRoot.path)
        // Its catalog answers 400 too: as if that was said already, so that only the query's error shows.
        session.completionCache.store(ChannelCatalog.schemaFailedKey, true)
    }

    /// Runs `text`; exit code and what it printed on stderr.
    func run(_ text: String) async -> (code: Int32, errors: String) {
        let before = errors.text.count
        let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session)
        return (code, String(errors.text.dropFirst(before)))
    }
}
