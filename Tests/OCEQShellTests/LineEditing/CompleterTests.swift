import DeliveryKit
import Foundation
import OCEQCore
import OCEQLanguage
import Synchronization
import Testing

@testable import OCEQShell

private func texts(_ completion: Completion) -> [String] { completion.candidates.map(\.text) }

private let article = "list type=OCEGettingStartedArticle"

@MainActor
@Suite("Tab completion against oceq serve of the sample channel")
struct CompleterTests {
    @Test("a command word: the registry's names and aliases")
    func commands() throws {
        let (completer, _) = try sampleCompleter()
        let completion = completer.complete(line: "re", cursor: 2)
        #expect(completion.word == "re")
        #expect(texts(completion) == ["refresh"])
        #expect(texts(completer.complete(line: "ex", cursor: 2)) == ["exit", "explain"])
        #expect(texts(completer.complete(line: "help qu", cursor: 7)) == ["quit"])
        #expect(texts(completer.complete(line: "count; fir", cursor: 10)) == ["first"], "a new statement after ;")
    }

    @Test("after type=, the channel's types")
    func types() throws {
        let (completer, _) = try sampleCompleter()
        let completion = completer.complete(line: "list type=OCEGett", cursor: 17)
        #expect(completion.word == "OCEGett")
        #expect(
            texts(completion) == [
                "OCEGettingStartedArticle", "OCEGettingStartedAuthor", "OCEGettingStartedHomePage",
                "OCEGettingStartedTopic",
            ])
        #expect(CompletionAction.plan(completion) == .replace(deleting: 7, text: "OCEGettingStarted"))
        let all = completer.complete(line: "count type=", cursor: 11)
        #expect(all.word == "")
        #expect(texts(all).contains("Image"))
        let quoted = completer.complete(line: "count type=\"ima", cursor: 15)
        #expect(quoted.word == "\"ima" && texts(quoted) == ["Image"])
    }

    @Test("a field position: the fields of the statement's type, from the channel's catalog, cached")
    func fields() throws {
        let (completer, session) = try sampleCompleter()
        let line = article + " to"
        let completion = completer.complete(line: line, cursor: line.count)
        #expect(completion.word == "to" && texts(completion) == ["topic"])
        #expect(session.completionCache.cached(ChannelCatalog.schemaKey, as: ChannelSchema.self) != nil)
        let after = article + " and not au"
        #expect(texts(completer.complete(line: after, cursor: after.count)) == ["author"])
        let order = article + " order by pub"
        #expect(texts(completer.complete(line: order, cursor: order.count)) == ["published_date"])
        let expand = article + " expand all, im"
        #expect(
            texts(completer.complete(line: expand, cursor: expand.count)) == ["image", "image_16x9", "image_caption"])
        let prefixed = "count type=OCEGettingStartedArticle and fields.to"
        #expect(texts(completer.complete(line: prefixed, cursor: prefixed.count)) == ["fields.topic"])
        // Inside explain, let and a parenthesised selection too.
        for line in [
            "explain list type=OCEGettingStartedArticle and to", "let x = count type=OCEGettingStartedArticle to",
            "download (list type=OCEGettingStartedArticle to",
        ] {
            #expect(texts(completer.complete(line: line, cursor: line.count)) == ["topic"], "\(line)")
        }
        // Without a type in the statement only the standard fields are known.
        #expect(texts(completer.complete(line: "list na", cursor: 7)) == ["name"])
    }

    @Test("keywords where a clause may go on")
    func keywords() throws {
        let (completer, _) = try sampleCompleter()
        let line = article + " "
        let next = texts(completer.complete(line: line, cursor: line.count))
        #expect(
            ["and", "or", "order", "limit", "offset", "fields", "expand", "search", "topic"].allSatisfy(next.contains))
        let limit = article + " li"
        #expect(texts(completer.complete(line: limit, cursor: limit.count)) == ["limit"])
        let direction = article + " order by name "
        #expect(texts(completer.complete(line: direction, cursor: direction.count)).prefix(2) == ["asc", "desc"])
        let number = article + " limit "
        #expect(completer.complete(line: number, cursor: number.count).candidates.isEmpty, "a number goes there")
    }

    @Test("after a reference field, the names of the referenced type's items, inserting ids")
    func references() throws {
        let (completer, _) = try sampleCompleter()
        let line = article + " topic=Esp"
        let completion = completer.complete(line: line, cursor: line.count)
        #expect(completion.word == "Esp")
        #expect(
            completion.candidates == [
                CompletionCandidate("CORE141A251016B815034E10D61C414604D1", display: "Espresso & Milk")
            ])
        #expect(
            CompletionAction.plan(completion)
                == .replace(deleting: 3, text: "CORE141A251016B815034E10D61C414604D1 "))
        // A name of several words (and a `&`) is matched as typed so far.
        let longer = article + " topic=Espresso & M"
        #expect(completer.complete(line: longer, cursor: longer.count).word == "Espresso & M")
        #expect(
            texts(completer.complete(line: longer, cursor: longer.count)) == ["CORE141A251016B815034E10D61C414604D1"])
        // Several names are listed by name; the ids' common prefix is not inserted.
        let all = article + " topic="
        let topics = completer.complete(line: all, cursor: all.count)
        #expect(topics.candidates.map(\.display).contains("Coffee Origins") && topics.candidates.count == 7)
        #expect(CompletionAction.plan(topics) == .list(topics.candidates.map(\.display)))
        let author = article + " author=\"pri"
        let authors = completer.complete(line: author, cursor: author.count)
        #expect(authors.word == "\"pri" && authors.candidates.map(\.display) == ["Priya Natarajan"])
    }

    @Test("after a taxonomy field, the categories (and for taxonomies= the taxonomies), inserting ids")
    func taxonomyTerms() throws {
        let (completer, _) = try sampleCompleter()
        let line = "count taxonomies=Esp"
        let completion = completer.complete(line: line, cursor: line.count)
        #expect(completion.word == "Esp")
        #expect(
            completion.candidates == [
                CompletionCandidate("AD2DD24D6CB61F377312C8CA0F68467A", display: "Espresso (Café Supremo Guide)")
            ])
        let all = "list type=Image taxonomies.categories.nodes.id="
        let categories = completer.complete(line: all, cursor: all.count).candidates.map(\.display)
        #expect(categories.count == 7 && categories.contains("Methods (Café Supremo Guide)"), "\(categories)")
        let either = completer.complete(line: "count taxonomies=C", cursor: "count taxonomies=C".count)
        #expect(either.candidates.map(\.display) == ["Café Supremo Guide"])
    }

    @Test("@n: the rows of the last result with their names")
    func rows() async throws {
        var (completer, session) = try sampleCompleter()
        #expect(completer.complete(line: "get @", cursor: 5).candidates.isEmpty, "no listing yet")
        let code = await ScriptRunner.run(
            text: "list type=OCEGettingStartedTopic order name", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0)
        // A source is what the session holds when it is made (the REPL makes one per line): one after the listing.
        completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10)))
        let completion = completer.complete(line: "get @", cursor: 5)
        #expect(completion.word == "@" && completion.candidates.count == 7)
        #expect(completion.candidates.first == CompletionCandidate("@1", display: "@1 Brewing at Home"))
        let inCondition = article + " topic=@"
        #expect(texts(completer.complete(line: inCondition, cursor: inCondition.count)).count == 7)
        #expect(texts(completer.complete(line: "show @7", cursor: 7)) == ["@7"])
    }

    @Test("file paths after source, run and to")
    func paths() throws {
        let (completer, _) = try sampleCompleter()
        let completion = completer.complete(line: "source Scripts/blog-t", cursor: 21)
        #expect(completion.word == "Scripts/blog-t" && texts(completion) == ["Scripts/blog-tour.oceq"])
        #expect(texts(completer.complete(line: "run Scrip", cursor: 9)) == ["Scripts/"])
        let to = "download @1 rendition Medium to Sampl"
        #expect(texts(completer.complete(line: to, cursor: to.count)) == ["Samples/"])
        let listed = completer.complete(line: "source Scripts/b", cursor: 16)
        #expect(listed.candidates.map(\.display).contains("blog-tour.oceq"))
        #expect(texts(listed).allSatisfy { $0.hasPrefix("Scripts/b") })
    }

    @Test("refresh forgets what completion learned")
    func refresh() async throws {
        let (completer, session) = try sampleCompleter()
        _ = completer.complete(line: "list type=", cursor: 10)
        #expect(session.completionCache.count == 1)
        let code = await ScriptRunner.run(text: "refresh", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0)
        #expect(session.completionCache.count == 0)
    }
}

/// A source whose words carry terminal control sequences.
private struct HostileSource: CompletionSource {
    func commandNames() -> [String] { ["list"] }
    func typeNames() -> [String] { ["Evil\u{1B}]0;owned\u{7}Type", "Plain"] }
    func fields(ofType type: String) -> [String: JSON] { [:] }
    func items(ofType type: String) -> [ItemName] { [] }
    func values(ofField field: String, type: String) -> [String] {
        ["Val\u{1B}]52;c;eA==\u{7}ue", "two\u{9B}31m words"]
    }
    func itemFields(_ reference: String) -> [String: JSON] { ["fi\u{1B}[31meld": .string("x")] }
    func argumentCompletion(of command: String) -> [ArgumentCompletion] {
        command == "field" ? [.item, .fieldPath] : command == "connect" ? [.profile] : []
    }
    func profileNames() -> [String] { ["pro\u{1B}]0;t\u{7}file"] }
    func rows() -> [ItemName] { [ItemName(name: "Row\u{1B}[2J one", id: "ID1")] }
    func variableNames() -> [String] { [] }
    var baseDirectory: String { "." }
}

/// A flag another task waits for.
private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

@MainActor
@Suite("Tab completion: control sequences and slow lookups")
struct CompleterSafetyTests {
    @Test("text from the channel is stripped of control sequences before it is offered")
    func stripped() {
        let completer = Completer(source: HostileSource())
        let types = completer.complete(line: "list type=E", cursor: 11)
        #expect(texts(types) == ["Evil]0;ownedType"])
        #expect(completer.complete(line: "get @", cursor: 5).candidates.first?.display == "@1 Row[2J one")
        #expect(
            texts(completer.complete(line: "list type=Plain name=", cursor: 21)) == [
                "\"Val]52;c;eA==ue\"", "\"two31m words\"",
            ])
        #expect(texts(completer.complete(line: "field ID1 f", cursor: 11)) == ["fi[31meld"])
        #expect(texts(completer.complete(line: "connect p", cursor: 9)) == ["pro]0;tfile"])
    }

    @Test("a slow lookup gives nothing at once, goes on, and is cached for the next Tab")
    func bounded() async throws {
        let cache = CompletionCache()
        let release = Flag()
        let first = cache.value("slow", timeout: .milliseconds(20)) { () async throws -> [String] in
            while !release.value.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
            return ["late"]
        }
        #expect(first == nil)
        #expect(cache.value("slow", timeout: .milliseconds(20)) { ["again"] } == nil, "one lookup at a time")
        release.value.store(true, ordering: .relaxed)
        var cached: [String]?
        for _ in 0..<500 where cached == nil {
            try await Task.sleep(for: .milliseconds(10))
            cached = cache.cached("slow")
        }
        #expect(cached == ["late"])
        #expect(cache.value("failing") { () async throws -> [String] in throw CancellationError() } == nil)
        #expect(cache.count == 1, "a failure is not kept")
    }
}
