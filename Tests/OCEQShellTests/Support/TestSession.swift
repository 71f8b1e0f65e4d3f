import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQApp
import OCEQCore
import OCEQShell
import Testing

/// A line reader that hands out scripted results, and records prompts and history. Sendable (its
/// state is locked): the REPL reads it on a thread of its own while the test keeps it to look at.
final class FakeLineReader: LineReader, Sendable {
    private struct State {
        var results: [LineReadResult]
        var prompts: [String] = []
        var history: [String] = []
    }
    private let state: Locked<State>

    init(_ results: [LineReadResult]) {
        state = Locked(State(results: results))
    }

    /// Reads each line of `lines` in turn, then `.end`.
    convenience init(lines: [String]) {
        self.init(lines.map(LineReadResult.line))
    }

    /// The prompts shown, in order.
    var prompts: [String] { state.withLock { $0.prompts } }
    /// The history entries added, in order.
    var history: [String] { state.withLock { $0.history } }

    func readLine(prompt: String) -> LineReadResult {
        state.withLock { state in
            state.prompts.append(prompt)
            return state.results.isEmpty ? .end : state.results.removeFirst()
        }
    }

    func addHistory(_ entry: String) { state.withLock { $0.history.append(entry) } }
}

/// One connection to the bundled sample channel, served in-process, shared by the tests.
let sampleConnection: Connection? = openSampleConnection()

/// A new connection to the bundled sample channel, for a test that must be its only user (its request log,
/// which the shared one's concurrent users would empty).
func openSampleConnection() -> Connection? {
    let credentials = Credentials(
        url: repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path,
        channelToken: "935a30048d49b8479c9bc1577e392eba")
    return try? Connection.open(credentials, opener: InProcessServer())
}

/// A connection to a server that is never contacted (for `explain`).
let offlineConnection: Connection = {
    let configuration = try! DeliveryConfiguration(url: "http://127.0.0.1:8411", channelToken: "s3cr3t-token")
    return Connection(client: DeliveryClient(configuration: configuration), channelName: "offline")
}()

/// A session writing to memory.
@MainActor
func makeSession(
    connection: Connection? = sampleConnection, arguments: [String] = [], width: Int = 200
) -> (Session, MemoryOutput, MemoryOutput) {
    let output = MemoryOutput(width: width)
    let errors = MemoryOutput()
    let session = Session(
        registry: .standard, connection: connection, output: output, errors: errors, arguments: arguments,
        baseDirectory: repositoryRoot.path)
    session.localExportOpener = InProcessServer()
    return (session, output, errors)
}

/// Runs `text` as a script in a fresh session; exit code, stdout, stderr.
@MainActor
func runScript(
    _ text: String, fileName: String? = "test.oceq", connection: Connection? = sampleConnection,
    arguments: [String] = [], keepGoing: Bool = false
) async -> (code: Int32, output: String, errors: String) {
    let (session, output, errors) = makeSession(connection: connection, arguments: arguments)
    let code = await ScriptRunner.run(text: text, fileName: fileName, in: session, keepGoing: keepGoing)
    return (code, output.text, errors.text)
}

/// A session on the sample channel (served in-process) with a fresh completion cache, and its completer;
/// `environment` says where profiles are.
@MainActor
func sampleCompleter(environment: [String: String] = [:]) throws -> (Completer, Session) {
    let connection = try #require(sampleConnection, "the sample channel did not open")
    let (session, _, _) = makeSession(connection: connection)
    let source = SessionCompletionSource(session: session, timeout: .seconds(10), environment: environment)
    return (Completer(source: source), session)
}
