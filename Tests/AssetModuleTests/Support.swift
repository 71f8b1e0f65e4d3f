// Running asset commands against the bundled sample channel, served in-process, and pinning what
// they print in golden files (`Tests/AssetModuleTests/Golden/`; OCEQ_RECORD_GOLDEN=1 re-records).

import AssetModule
import Foundation
import OCEQApp
import OCEQShell
import OCEQTestSupport
import Testing

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The core commands and the asset commands.
let registry: CommandRegistry = {
    do {
        return try CommandRegistry(modules: [CoreModule.module, AssetModule.module])
    } catch {
        fatalError("\(error)")
    }
}()

/// One connection to the sample channel, shared by the tests.
let sampleConnection: Connection? = {
    let credentials = Credentials(
        url: repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path,
        channelToken: "935a30048d49b8479c9bc1577e392eba")
    return try? Connection.open(credentials, opener: InProcessServer())
}()

/// Runs `text` as a script; exit code, stdout and stderr with the server's port as PORT.
@MainActor
func runScript(_ text: String, keepGoing: Bool = false) async -> (code: Int32, output: String, errors: String) {
    let output = MemoryOutput(width: 120)
    let errors = MemoryOutput()
    let session = Session(
        registry: registry, connection: sampleConnection, output: output, errors: errors,
        baseDirectory: repositoryRoot.path)
    let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session, keepGoing: keepGoing)
    return (code, normalized(output.text), normalized(errors.text))
}

/// `text` with the in-process server's port replaced by `PORT`.
func normalized(_ text: String) -> String {
    text.replacingOccurrences(of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
}

/// Compares `actual` with the golden file `name`, or records it when OCEQ_RECORD_GOLDEN=1.
func expectGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    GoldenFile.expect(
        actual, named: name,
        in: repositoryRoot.appendingPathComponent("Tests/AssetModuleTests/Golden"),
        sourceLocation: sourceLocation)
}
