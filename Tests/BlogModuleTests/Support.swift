// The harness of the blog tests: sessions with the core and blog commands on the bundled sample
// channel (served in-process), statements run one at a time through the script runner, golden
// files in `Golden/` (OCEQ_RECORD_GOLDEN=1 records them afresh; review the diff).

import BlogModule
import Foundation
import OCEQApp
import OCEQShell
import OCEQTestSupport
import Testing

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The commands of the executable: core and blog.
let blogRegistry: CommandRegistry = try! CommandRegistry(modules: [CoreModule.module, BlogModule.module])

/// The bundled sample channel, served in-process, shared by the tests.
let sampleConnection: Connection? = {
    let credentials = Credentials(
        url: repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path,
        channelToken: "935a30048d49b8479c9bc1577e392eba")
    return try? Connection.open(credentials, opener: InProcessServer())
}()

/// The 2021 blog template export: a blog, but not the sample's content model.
let templatePath = repositoryRoot.appendingPathComponent(
    "Tests/ChannelServerTests/Fixtures/exports/BlogTemplate-2021-export.zip"
).path

/// A shell on a channel, writing to memory 80 columns wide (or `width` × `height`, a terminal
/// when `terminal`).
@MainActor
final class Shell {
    let session: Session
    let output: MemoryOutput
    let errors = MemoryOutput()

    init(
        connection: Connection? = sampleConnection, width: Int = 80, height: Int = Int.max, terminal: Bool = false
    ) {
        output = MemoryOutput(isTerminal: terminal, width: width, height: height)
        session = Session(
            registry: blogRegistry, connection: connection, output: output, errors: errors,
            baseDirectory: repositoryRoot.path)
        session.localExportOpener = InProcessServer()
    }

    /// Runs `text`; exit code, and what it printed on stdout and stderr.
    func run(_ text: String) async -> (code: Int32, output: String, errors: String) {
        let before = (output.text.count, errors.text.count)
        let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session)
        return (code, String(output.text.dropFirst(before.0)), String(errors.text.dropFirst(before.1)))
    }

    /// Runs each statement and returns a transcript (`$ statement` then its output).
    func transcript(_ statements: [String]) async -> String {
        var text = ""
        for statement in statements {
            let result = await run(statement)
            text += "$ \(statement)\n" + result.output + result.errors
        }
        return text
    }
}

/// Compares `actual` with the golden file `name`, or records it when OCEQ_RECORD_GOLDEN=1.
func expectGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    GoldenFile.expect(
        actual, named: name,
        in: repositoryRoot.appendingPathComponent("Tests/BlogModuleTests/Golden"),
        sourceLocation: sourceLocation)
}
