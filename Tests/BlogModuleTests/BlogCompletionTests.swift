import Foundation
import OCEQShell
import Testing

/// Tab completion of the blog commands' argument: the names of topics, articles and authors.
@MainActor
@Suite("Tab after articles, read and author")
struct BlogCompletionTests {
    /// The completer of a fresh shell on the sample channel.
    private func completer() -> Completer {
        Completer(source: SessionCompletionSource(session: Shell().session, timeout: .seconds(10)))
    }

    private func texts(_ completer: Completer, _ line: String) -> [String] {
        completer.complete(line: line, cursor: line.count).candidates.map(\.text)
    }

    @Test("articles, read and author complete the names of topics, articles and authors, quoted where needed")
    func names() {
        let completer = completer()
        let topic = completer.complete(line: "articles Esp", cursor: 12)
        #expect(topic.word == "Esp")
        #expect(topic.candidates == [CompletionCandidate("\"Espresso & Milk\"", display: "Espresso & Milk")])
        #expect(CompletionAction.plan(topic) == .replace(deleting: 3, text: "\"Espresso & Milk\" "))
        #expect(texts(completer, "articles espresso & m") == ["\"Espresso & Milk\""], "several words, any case")
        #expect(completer.complete(line: "articles espresso & m", cursor: 21).word == "espresso & m")
        #expect(texts(completer, "articles \"Espr") == ["\"Espresso & Milk\""], "typed in quotes")
        #expect(texts(completer, "articles milk") == ["\"Espresso & Milk\""], "a part of the name when none starts so")
        #expect(texts(completer, "articles ").count == 7)
        #expect(texts(completer, "read The Cort") == ["\"The Cortado Guide\""])
        #expect(texts(completer, "author Pri") == ["\"Priya Natarajan\""])
        #expect(texts(completer, "author nosuch").isEmpty)
    }

    @Test("a completed name reads the item")
    func completedNameRuns() async throws {
        let shell = Shell()
        let completer = Completer(source: SessionCompletionSource(session: shell.session, timeout: .seconds(10)))
        let candidates = completer.complete(line: "articles Esp", cursor: 12).candidates
        let candidate = try #require(candidates.first)
        let result = await shell.run("articles " + candidate.text)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("Espresso & Milk"))
    }
}
