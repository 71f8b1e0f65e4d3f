import Foundation
import OCEQTestSupport
import Testing

@testable import OCEQShell

@MainActor
@Suite("Pager", .serialized)
struct PagerTests {
    @Test("output taller than the terminal goes through the pager; short output does not")
    func pages() async throws {
        let file = TestTemporary.path("oceq-pager", suffix: ".txt")
        defer { TestTemporary.remove(file) }
        let output = MemoryOutput(isTerminal: true, width: 200, height: 6)
        let errors = MemoryOutput()
        let session = Session(
            registry: .standard, connection: sampleConnection, output: output, errors: errors,
            baseDirectory: repositoryRoot.path)
        session.settings.pager = "cat > '\(file)'"
        let code = await ScriptRunner.run(
            text: "count\nlist type=OCEGettingStartedTopic\necho 935a30048d49b8479c9bc1577e392eba", fileName: nil,
            in: session)
        #expect(code == 0, "\(errors.text)")
        let paged = try String(contentsOfFile: file, encoding: .utf8)
        #expect(paged.contains("(7 rows)"))
        #expect(!output.text.contains("(7 rows)"))
        // Results are not rewritten (tokens are hidden where URLs are built, not in output).
        #expect(output.text == "146\n935a30048d49b8479c9bc1577e392eba\n")
    }

    @Test("set pager off and on; $PAGER chooses the command")
    func setting() async {
        let (session, _, _) = makeSession()
        _ = await ScriptRunner.run(text: "set pager on", fileName: nil, in: session)
        #expect(session.settings.pager != nil)
        _ = await ScriptRunner.run(text: "set pager off", fileName: nil, in: session)
        #expect(session.settings.pager == nil)
        #expect(Pager.defaultCommand(environment: ["PAGER": "more"]) == "more")
        #expect(Pager.defaultCommand(environment: [:]) == "less -FRX")
    }
}
