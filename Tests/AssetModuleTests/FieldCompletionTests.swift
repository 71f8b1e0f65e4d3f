import DeliveryKit
import Foundation
import OCEQCore
import OCEQShell
import Testing

/// A session on the sample channel with the asset commands, and its completer.
@MainActor
private func assetCompleter() throws -> (Completer, Session) {
    let connection = try #require(sampleConnection, "the sample channel did not open")
    let session = Session(
        registry: registry, connection: connection, output: MemoryOutput(width: 120), errors: MemoryOutput(),
        baseDirectory: repositoryRoot.path)
    return (Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10))), session)
}

private func texts(_ completer: Completer, _ line: String) -> [String] {
    completer.complete(line: line, cursor: line.count).candidates.map(\.text)
}

private let homePage = "COREE949A60AEBA81811CFCCDA1E2391B5E5"

@MainActor
@Suite("Tab completion of field's item and path, against oceq serve of the sample channel")
struct FieldCompletionTests {
    @Test("field, show, fields: the rows of the last listing where the item goes")
    func items() async throws {
        var (completer, session) = try assetCompleter()
        #expect(texts(completer, "field ").isEmpty, "no listing yet")
        let code = await ScriptRunner.run(
            text: "list type=OCEGettingStartedArticle order name limit 3", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0)
        // A source is what the session holds when it is made (the REPL makes one per line): one after the listing.
        completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10)))
        #expect(texts(completer, "field ") == ["@1", "@2", "@3"])
        #expect(texts(completer, "show ") == ["@1", "@2", "@3"])
        #expect(
            completer.complete(line: "fields ", cursor: 7).candidates.first?.display
                == "@1 A Beginner's Guide to Home Espresso Machines")
        #expect(texts(completer, "show @1 ").isEmpty, "show takes one item")
    }

    @Test("field ITEM PATH: the item's fields, then through references, lists and json values")
    func paths() async throws {
        let (_, session) = try assetCompleter()
        let code = await ScriptRunner.run(
            text: "list type=OCEGettingStartedArticle order name limit 3", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0)
        // A source is what the session holds when it is made (the REPL makes one per line): one after the listing.
        let completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10)))
        #expect(
            texts(completer, "field @1 ") == [
                "article_content", "author", "image", "image_16x9", "image_caption", "published_date", "topic",
            ])
        // A reference may be followed: no space after it; a text field ends the path.
        let author = completer.complete(line: "field @1 au", cursor: 11)
        #expect(CompletionAction.plan(author) == .replace(deleting: 2, text: "author"))
        let caption = completer.complete(line: "field @1 image_c", cursor: 16)
        #expect(CompletionAction.plan(caption) == .replace(deleting: 7, text: "image_caption "))
        // After a dot, the fields of the item the reference points to.
        let avatar = completer.complete(line: "field @1 author.", cursor: 16)
        #expect(
            avatar.word == "author."
                && avatar.candidates == [CompletionCandidate("author.avatar", display: "avatar", goesOn: true)])
        #expect(texts(completer, "field @1 author.avatar.mi") == ["author.avatar.mimeType"])
        // A list takes a number, from 1; an id and slug: name the item too.
        #expect(texts(completer, "field \(homePage) topics.") == (1...7).map { "topics.\($0)" })
        #expect(texts(completer, "field \(homePage) topics.2.") == ["topics.2.thumbnail"])
        #expect(texts(completer, "field slug:priya-natarajan ") == ["avatar"])
        // Nothing where the path does not lead anywhere.
        #expect(texts(completer, "field @1 nosuch.").isEmpty)
        #expect(texts(completer, "field @1 image_caption.").isEmpty)
        #expect(texts(completer, "field \(homePage) topics.9.").isEmpty)
        #expect(texts(completer, "field @9 ").isEmpty, "no row 9")
        #expect(texts(completer, "field (first type=OCEGettingStartedTopic) ").isEmpty)
        #expect(session.completionCache.cached("item\u{0}slug:priya-natarajan", as: [String: JSON].self) != nil)
    }
}
