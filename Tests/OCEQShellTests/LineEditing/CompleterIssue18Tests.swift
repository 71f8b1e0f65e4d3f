import DeliveryKit
import Foundation
import OCEQCore
import OCEQLanguage
import Testing

@testable import OCEQShell

private func texts(_ completer: Completer, _ line: String) -> [String] {
    completer.complete(line: line, cursor: line.count).candidates.map(\.text)
}

private let article = "list type=OCEGettingStartedArticle"

/// A source that knows nothing from the channel yet and says a lookup is still running.
private struct WaitingSource: CompletionSource {
    func commandNames() -> [String] { ["list"] }
    func typeNames() -> [String] { [] }
    func fields(ofType type: String) -> [String: JSON] { [:] }
    func items(ofType type: String) -> [ItemName] { [] }
    func values(ofField field: String, type: String) -> [String] { [] }
    func itemFields(_ reference: String) -> [String: JSON] { [:] }
    func argumentCompletion(of command: String) -> [ArgumentCompletion] { [] }
    func profileNames() -> [String] { [] }
    func rows() -> [ItemName] { [] }
    func variableNames() -> [String] { [] }
    var baseDirectory: String { "." }
    func isWaiting() -> Bool { true }
}

@MainActor
@Suite("Tab completion: clauses given once, a slow channel, connect")
struct CompleterIssue18Tests {
    @Test("a clause already in the statement is not offered again")
    func clausesOnce() throws {
        let (completer, _) = try sampleCompleter()
        let afterOrder = texts(completer, article + " order name ")
        #expect(afterOrder.contains("limit") && afterOrder.contains("asc"))
        #expect(!afterOrder.contains("order"), "\(afterOrder)")
        let afterLimit = texts(completer, article + " limit 5 ")
        #expect(afterLimit.contains("order") && !afterLimit.contains("limit"), "\(afterLimit)")
        let both = texts(completer, article + " order name limit 5 ")
        #expect(!both.contains("order") && !both.contains("limit") && both.contains("offset"), "\(both)")
        #expect(texts(completer, article + " limit 5 li").isEmpty)
        #expect(texts(completer, article + " limit 5 o") == ["order", "offset"], "the clauses still open")
        let condition = texts(completer, article + " name=Latte fields all ")
        #expect(!condition.contains("fields") && condition.contains("limit"), "\(condition)")
    }

    @Test("while the channel has not answered, Tab says so instead of beeping, and lists what it has")
    func waiting() {
        let completer = Completer(source: WaitingSource())
        let types = completer.complete(line: "list type=", cursor: 10)
        #expect(types.waiting && types.candidates.isEmpty)
        #expect(CompletionAction.plan(types) == .waiting([]))
        let fields = completer.complete(line: "list type=Unknown ", cursor: 18)
        #expect(fields.candidates.count > 2)
        #expect(CompletionAction.plan(fields) == .waiting(fields.candidates.map(\.display)))
        let one = completer.complete(line: "list type=Unknown na", cursor: 20)
        #expect(CompletionAction.plan(one) == .replace(deleting: 2, text: "name "), "one sure candidate still goes in")
    }

    @Test("the cache says a lookup is running until it ends")
    func lookingUp() async throws {
        let cache = CompletionCache()
        #expect(!cache.isLookingUp)
        let release = Locked(false)
        let first = cache.value("slow", timeout: .milliseconds(10)) { () async throws -> [String] in
            while !release.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            return ["late"]
        }
        #expect(first == nil)
        #expect(cache.isLookingUp)
        release.withLock { $0 = true }
        for _ in 0..<1000 where cache.isLookingUp { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!cache.isLookingUp && cache.cached("slow", as: [String].self) == ["late"])
    }

    @Test("connect forgets what Tab learned of the channel before")
    func connectClears() async throws {
        let (completer, session) = try sampleCompleter()
        _ = completer.complete(line: "list type=", cursor: 10)
        #expect(session.completionCache.count == 1)
        let code = await ScriptRunner.run(
            text: "connect Samples/OCEGettingStarted", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0)
        #expect(session.completionCache.count == 0)
    }
}
