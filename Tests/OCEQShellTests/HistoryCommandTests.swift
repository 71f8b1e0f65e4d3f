import Foundation
import OCEQTestSupport
import Testing

@testable import OCEQShell

/// `history [N]`: the history file's statements, numbered.
@Suite("history command")
@MainActor
struct HistoryCommandTests {
    @Test("history lists the file's statements numbered, the last N keep their numbers; a token never shows")
    func lists() async throws {
        let folder = TestTemporary.make("oceq-history-command")
        defer { TestTemporary.remove(folder) }
        let path = folder + "/state/history"
        let writer = History(path: path)
        try writer.load()
        for entry in ["count", "connect https://example.com s3cr3t-token", "list type=Image\n  limit 2", "echo hi"] {
            writer.add(entry)
        }
        let (session, output, errors) = makeSession(connection: offlineConnection)
        session.historyPath = path
        var code = await ScriptRunner.run(text: "history", fileName: "test.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        #expect(output.text == "1  count\n2  list type=Image\n     limit 2\n3  echo hi\n")
        #expect(!output.text.contains("s3cr3t"))
        output.clear()
        code = await ScriptRunner.run(text: "history 1", fileName: "test.oceq", in: session)
        #expect(output.text == "3  echo hi\n")
        code = await ScriptRunner.run(text: "history 0", fileName: "test.oceq", in: session)
        #expect(code == 1)
        #expect(errors.text.contains("history takes a number of statements (1 or more)"))
    }

    @Test("without a history file: '(no history)', and nothing is created")
    func empty() async {
        let folder = TestTemporary.make("oceq-history-empty")
        defer { TestTemporary.remove(folder) }
        let (session, output, _) = makeSession(connection: offlineConnection)
        session.historyPath = folder + "/state/oceq/history"
        let code = await ScriptRunner.run(text: "history", fileName: "test.oceq", in: session)
        #expect(code == 0)
        #expect(output.text == "(no history)\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/state"))
    }
}
