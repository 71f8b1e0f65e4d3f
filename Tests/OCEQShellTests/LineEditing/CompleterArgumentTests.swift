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

@MainActor
@Suite("Tab completion of command arguments and condition values, against oceq serve of the sample channel")
struct CompleterArgumentTests {
    @Test("set: the settings, then the values the named setting takes (read from Settings)")
    func settings() throws {
        let (completer, _) = try sampleCompleter()
        #expect(texts(completer, "set ") == Settings.names)
        #expect(
            texts(completer, "set ")
                == ["format", "limit", "errexit", "timing", "pager", "color", "html", "images", "csv-raw"])
        #expect(texts(completer, "set csv-raw ") == ["on", "off"])
        #expect(texts(completer, "set pa") == ["pager"])
        #expect(texts(completer, "set format ") == ["table", "expanded", "json", "ndjson", "csv"])
        #expect(texts(completer, "set format nd") == ["ndjson"])
        #expect(texts(completer, "set pager ") == ["on", "off"])
        #expect(texts(completer, "set timing o") == ["on", "off"])
        #expect(texts(completer, "set html ") == ["text", "raw"])
        #expect(texts(completer, "set images s") == ["symbols", "sixel"])
        #expect(texts(completer, "set limit ").isEmpty, "a number goes there")
        #expect(texts(completer, "set format json ").isEmpty, "set takes one value")
        #expect(texts(completer, "set nosuch ").isEmpty)
    }

    @Test("help: command names, for the first argument only")
    func help() throws {
        let (completer, _) = try sampleCompleter()
        #expect(texts(completer, "help ").contains("list") && texts(completer, "help ").contains("refresh"))
        #expect(texts(completer, "help con") == ["connect"])
        #expect(texts(completer, "help list ").isEmpty)
    }

    @Test("connect: the names in profiles.json (never their tokens), else paths")
    func connect() throws {
        let folder = NSTemporaryDirectory() + "oceq-profiles-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/oceq", withIntermediateDirectories: true)
        let profiles = #"""
            {"staging": {"url": "https://staging.example", "channelToken": "s3cr3t-staging"},
             "prod": {"url": "https://prod.example", "channelToken": "s3cr3t-prod"}, "broken": 3}
            """#
        try Data(profiles.utf8).write(to: URL(fileURLWithPath: folder + "/oceq/profiles.json"))
        let (completer, _) = try sampleCompleter(environment: ["XDG_CONFIG_HOME": folder])
        let all = completer.complete(line: "connect ", cursor: 8)
        #expect(all.candidates.map(\.text) == ["prod", "staging"])
        #expect(!all.candidates.contains { $0.text.contains("s3cr3t") || $0.display.contains("s3cr3t") })
        #expect(texts(completer, "connect st") == ["staging"])
        #expect(texts(completer, "connect Sampl") == ["Samples/"], "no profile starts so: a path")
        let (withoutProfiles, _) = try sampleCompleter(environment: ["XDG_CONFIG_HOME": folder + "/none"])
        #expect(texts(withoutProfiles, "connect Sampl") == ["Samples/"])
        #expect(texts(withoutProfiles, "connect ").contains("Samples/"))
    }

    @Test("after a field that is not a reference, the values it takes in items of the type, quoted as needed")
    func values() throws {
        let (completer, session) = try sampleCompleter()
        let name = article + " name=Choo"
        let completion = completer.complete(line: name, cursor: name.count)
        #expect(completion.word == "Choo")
        #expect(
            completion.candidates == [
                CompletionCandidate(
                    "\"Choosing Milk for Your Flat White\"", display: "Choosing Milk for Your Flat White"),
                CompletionCandidate("\"Choosing a Gooseneck Kettle\"", display: "Choosing a Gooseneck Kettle"),
            ])
        #expect(CompletionAction.plan(completion) == .replace(deleting: 4, text: "\"Choosing "))
        #expect(
            session.completionCache.cached("values\u{0}OCEGettingStartedArticle\u{0}name", as: [String].self)?.count
                == 60)
        // Typed in quotes and over several words; a text custom field, with and without `fields.`.
        let quoted = article + " name=\"Choosing a G"
        #expect(texts(completer, quoted) == ["\"Choosing a Gooseneck Kettle\""])
        #expect(completer.complete(line: quoted, cursor: quoted.count).word == "\"Choosing a G")
        #expect(texts(completer, article + " image_caption=Milk f") == ["\"Milk folding into espresso.\""])
        #expect(texts(completer, article + " fields.image_caption ~ Milk f") == ["\"Milk folding into espresso.\""])
        // One word needs no quotes.
        #expect(texts(completer, "list type=OCEGettingStartedAuthor slug=priya") == ["priya-natarajan"])
        // After the value and a blank, the clause goes on.
        #expect(texts(completer, article + " name=Latte ").contains("order"))
        // Without a type in the statement there is nothing to read values from.
        #expect(texts(completer, "list name=Choo").isEmpty)
    }

    @Test("get: a row, then expand, then all or the item's reference fields not listed yet")
    func expand() async throws {
        let (_, session) = try sampleCompleter()
        let code = await ScriptRunner.run(
            text: "list type=OCEGettingStartedArticle order name limit 2", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0)
        // A source is what the session holds when it is made (the REPL makes one per line): one after the listing.
        let completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10)))
        #expect(texts(completer, "get ") == ["@1", "@2"])
        #expect(texts(completer, "get @1 ") == ["expand"])
        #expect(texts(completer, "get @1 ex") == ["expand"])
        #expect(texts(completer, "get @1 expand ") == ["all", "author", "image", "image_16x9", "topic"])
        #expect(texts(completer, "get @1 expand author, ") == ["image", "image_16x9", "topic"])
        #expect(texts(completer, "get @1 expand author,im") == ["image", "image_16x9"])
        #expect(texts(completer, "get @1 expand author ").isEmpty, "a comma goes on the list")
        #expect(texts(completer, "get slug:priya-natarajan expand ") == ["all", "avatar"])
    }

    @Test("a value is bare when the lexer reads it as one word, else quoted")
    func quoting() {
        #expect(Completer.quoted("Latte") == "Latte")
        #expect(Completer.quoted("2024-01-01") == "2024-01-01")
        #expect(Completer.quoted("and") == "\"and\"", "a keyword")
        #expect(Completer.quoted("Espresso & Milk") == "\"Espresso & Milk\"")
        #expect(Completer.quoted("say \"hi\"") == "'say \"hi\"'")
        #expect(Completer.quoted("it's \"x\"") == nil, "no quoting can hold both")
        #expect(Completer.quoted("a=b") == "\"a=b\"")
    }

    @Test("after order, only the fields the API sorts on")
    func order() throws {
        let (completer, _) = try sampleCompleter()
        #expect(
            texts(completer, article + " order ") == ["by", "name", "createdDate", "updatedDate", "published_date"])
        #expect(texts(completer, article + " order by ") == ["name", "createdDate", "updatedDate", "published_date"])
        #expect(
            texts(completer, article + " order by name desc, ") == [
                "name", "createdDate", "updatedDate", "published_date",
            ])
        #expect(texts(completer, "list order by ") == ["name", "createdDate", "updatedDate"])
    }
}
