import OCEQLanguage
import Testing

@testable import OCEQShell

@MainActor
@Suite("explain")
struct ExplainTests {
    static let statements = [
        "explain list type=OCEGettingStartedArticle topic=CORE0TOPIC order published_date desc limit 50",
        "explain count type=OCEGettingStartedArticle name ^= \"Coffee\"",
        "explain first type=OCEGettingStartedHomePage fields all",
        "explain list search coffee type in (A, B) offset 20 expand author",
        "explain count type=OCEGettingStartedArticle published_date >= 2026-04-20 updatedDate < 2026-01-01T09:30Z",
        "explain get slug:spiced-maple-latte",
        "explain get CORE123 expand author, topic",
        "explain echo hello",
    ]

    @Test("explain shows parameters, URL, curl and SDK code, token redacted")
    func golden() async throws {
        let (session, output, errors) = makeSession(connection: offlineConnection)
        var text = ""
        for statement in ExplainTests.statements {
            output.clear()
            let parsed = Parser.parse(statement, options: session.parserOptions)
            #expect(parsed.diagnostics.isEmpty)
            _ = try await Interpreter.perform(parsed.statements[0], in: session)
            text += "$ \(statement)\n" + output.text + "\n"
        }
        #expect(errors.text.isEmpty)
        #expect(!text.contains("s3cr3t-token"))
        #expect(text.contains("channelToken=REDACTED"))
        expectGolden(text, named: "explain.txt")
    }

    @Test("explain of a reference to a missing row names the problem")
    func missingRow() async {
        let result = await runScript("explain get @7", connection: offlineConnection)
        #expect(result.code == 1)
        #expect(result.errors.contains("error:"))
        #expect(result.errors.contains("@7"))
    }
}
