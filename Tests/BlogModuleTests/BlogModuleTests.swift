import DeliveryKit
import OCEQApp
import OCEQCore
import OCEQLanguage
import OCEQShell
import TerminalMedia
import Testing

@testable import BlogModule

@MainActor
@Suite("Blog commands on the sample channel", .serialized)
struct BlogCommandTests {
    @Test("the blog commands join the core ones without a clash, and every example parses")
    func registry() {
        let names = BlogModule.module.commands.map { $0.descriptor.name }
        #expect(names == ["home", "topics", "articles", "read", "author"])
        for command in BlogModule.module.commands {
            for example in command.descriptor.examples {
                let parsed = Parser.parse(example, options: ParserOptions(commands: blogRegistry.parserCommands))
                #expect(parsed.diagnostics.isEmpty, "\(example): \(parsed.diagnostics)")
                #expect(parsed.statements.count == 1)
            }
        }
    }

    @Test("home: company, logo, numbered topics, about and contact")
    func home() async {
        let shell = Shell()
        let result = await shell.run("home")
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(result.output, named: "home.txt")
        #expect(shell.session.lastRows?.count == 7)
    }

    @Test("topics: each with its description and article count")
    func topics() async {
        let shell = Shell()
        let result = await shell.run("topics")
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(result.output, named: "topics.txt")
    }

    @Test("home, articles @2, read @1: the sample's navigation")
    func navigation() async {
        let shell = Shell()
        _ = await shell.run("home")
        let articles = await shell.run("articles @2")
        #expect(articles.code == 0, "\(articles.errors)")
        expectGolden(articles.output, named: "articles.txt")
        let read = await shell.run("read @1")
        #expect(read.code == 0, "\(read.errors)")
        expectGolden(read.output, named: "read-80.txt")
        // read keeps the listing: the next article is @2.
        let next = await shell.run("read @2")
        #expect(next.code == 0)
        #expect(next.output.hasPrefix("The Cortado Guide\n"))
    }

    @Test("author: name, avatar and articles; without an argument, the authors")
    func author() async {
        let shell = Shell()
        let one = await shell.run("author priya")
        #expect(one.code == 0, "\(one.errors)")
        expectGolden(one.output, named: "author.txt")
        let chained = await shell.run("read @1")
        #expect(chained.output.hasPrefix("Spiced Maple Latte\n"))
        let all = await shell.run("author")
        #expect(all.code == 0)
        expectGolden(all.output, named: "authors.txt")
        let byRow = await shell.run("author @4")
        #expect(byRow.output == one.output)
    }

    @Test(
        "a topic is a row, an id, a name in any case, a unique part of one, or a variable",
        arguments: [
            "articles @2", "articles CORE141A251016B815034E10D61C414604D1", "articles \"Espresso & Milk\"",
            "articles espresso & milk", "articles Espresso", "let t = @2; articles $t",
        ])
    func topicArguments(statement: String) async {
        let shell = Shell()
        _ = await shell.run("home")
        let result = await shell.run(statement)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("Espresso & Milk: 10 articles, newest first\n"))
        #expect(shell.session.lastRows?.count == 10)
    }

    @Test("topics and home number the topics alike")
    func sameRows() async {
        let shell = Shell()
        _ = await shell.run("topics")
        let viaTopics = await shell.run("articles @5")
        _ = await shell.run("home")
        let viaHome = await shell.run("articles @5")
        #expect(viaTopics.output == viaHome.output)
        #expect(viaHome.output.hasPrefix("Recipes: "))
    }

    @Test("read @99 names the rows there are")
    func rowOutOfRange() async {
        let shell = Shell()
        _ = await shell.run("articles @2")
        let none = await shell.run("read @99")
        #expect(none.code == 1)
        #expect(none.errors.contains("there is none yet"))
        _ = await shell.run("home")
        _ = await shell.run("articles @2")
        let result = await shell.run("read @99")
        #expect(result.code == 1)
        #expect(
            result.errors
                == "test.oceq:1:6: error: '@99' is out of range; the last listing has 10 rows\n1 | read @99\n  |      ^~~\n"
        )
    }

    @Test("an unknown topic or author is an error with a caret and a suggestion, or the names there are")
    func unknownNames() async {
        let shell = Shell()
        let topic = await shell.run("articles Rosting")
        #expect(topic.code == 1)
        #expect(topic.errors.hasPrefix("test.oceq:1:10: error: no topic named 'Rosting'; did you mean 'Roasting'?\n"))
        let author = await shell.run("author Nobody")
        #expect(
            author.errors.hasPrefix(
                "test.oceq:1:8: error: no author named 'Nobody'; there are 'Alex Morgan', 'Hana Kim', 'Mateo Álvarez' "
                    + "and 'Priya Natarajan'\n"), "no near miss: the names there are")
        let ambiguous = await shell.run("articles o")
        #expect(ambiguous.errors.contains("'o' names more than one topic"))
    }

    @Test("an item of another type is named for what it is")
    func wrongType() async {
        let shell = Shell()
        _ = await shell.run("home")
        let topic = await shell.run("read @1")
        #expect(topic.code == 1)
        #expect(topic.errors.contains("error: 'Brewing at Home' is of type OCEGettingStartedTopic, not an article"))
        _ = await shell.run("list type=Image order name limit 1")
        let image = await shell.run("articles @1")
        #expect(image.errors.contains("is of type Image, not a topic"))
        let asset = await shell.run("read @1")
        #expect(asset.errors.contains("is of type Image, not an article"))
    }

    @Test("wrong arguments are usage errors")
    func usage() async {
        let shell = Shell()
        #expect(await shell.run("home now").errors.contains("home takes no arguments"))
        #expect(await shell.run("articles").errors.contains("articles takes a topic"))
        #expect(await shell.run("read").errors.contains("read takes an article"))
    }

    @Test("json prints the items; the rows are still numbered")
    func json() async {
        let shell = Shell()
        _ = await shell.run("home")
        let result = await shell.run("set format ndjson; articles @2")
        #expect(result.code == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines.allSatisfy { $0.hasPrefix("{") })
        let read = await shell.run("read @1")
        #expect(read.output.contains("\"article_content\""))
    }

    @Test("server text cannot reach the terminal with control characters")
    func controlCharacters() {
        let text =
            #"{"id":"CORE1","type":"OCEGettingStartedArticle","name":"Evil\u001b]0;owned\u0007 title","#
            + #""fields":{"image_caption":"cap\u001b[31mtion","#
            + #""article_content":"<p>red \u001b[31m text &#27;[2J</p>"}}"#
        let json = try! JSON.parse(Array(text.utf8))
        let article = try! Asset(json: json)
        let screen = ReadCommand.screen(article, options: RichTextOptions(width: 80))
        #expect(!screen.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(screen.hasPrefix("Evil]0;owned title\n"))
    }
}

@MainActor
@Suite("Blog commands on a channel without the blog", .serialized)
struct NotBlogTests {
    static let message =
        "error: this channel has no blog: no OCEGettingStartedHomePage item named HomePage (the blog commands "
        + "need the content model of Oracle's blog sample)\n"

    @Test(
        "each command says so in one line",
        arguments: ["home", "topics", "articles Travel", "author", "author Someone", "read Post"])
    func oneLine(statement: String) async throws {
        let shell = Shell(connection: nil)
        let connect = await shell.run("connect \"\(templatePath)\"")
        #expect(connect.code == 0, "\(connect.errors)")
        let result = await shell.run(statement)
        #expect(result.code == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors == "test.oceq:1:1: " + NotBlogTests.message)
    }

    @Test("read @1 of a listing there says so too")
    func readRow() async {
        let shell = Shell(connection: nil)
        _ = await shell.run("connect \"\(templatePath)\"")
        _ = await shell.run("list limit 3")
        let result = await shell.run("read @1")
        #expect(result.errors.hasSuffix(NotBlogTests.message))
    }
}

@MainActor
@Suite("The blog commands send the sample's requests", .serialized)
struct BlogRequestTests {
    /// A connection of its own, so that no other test's requests enter its log.
    static let connection: Connection? = {
        let credentials = Credentials(
            url: repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path,
            channelToken: "935a30048d49b8479c9bc1577e392eba")
        return try? Connection.open(credentials, opener: InProcessServer())
    }()

    /// The URLs `statement` requests, after the channel prefix.
    static func urls(_ statement: String, after setup: String? = nil) async throws -> [String] {
        let connection = try #require(BlogRequestTests.connection)
        let shell = Shell(connection: connection)
        if let setup { _ = await shell.run(setup) }
        let parsed = Parser.parse(statement, options: ParserOptions(commands: blogRegistry.parserCommands))
        _ = connection.takeLog()
        _ = try await Interpreter.execute(parsed.statements[0], in: shell.session)
        return connection.takeLog().map { entry in
            let url = entry.url
            guard let range = url.range(of: "/content/published/api/v1.1") else { return url }
            return String(url[range.upperBound...])
        }
    }

    @Test("home: §3.1, exactly")
    func home() async throws {
        let urls = try await BlogRequestTests.urls("home")
        #expect(
            urls == [
                "/items?channelToken=REDACTED&fields=all&limit=1&offset=0&q=type%20eq%20%22OCEGettingStartedHomePage%22"
                    + "%20and%20name%20eq%20%22HomePage%22&totalResults=true"
            ])
    }

    @Test("articles: §3.3 with fields=all; read: §3.4")
    func articlesAndRead() async throws {
        let articles = try await BlogRequestTests.urls("articles @2", after: "home")
        #expect(
            articles.last
                == "/items?channelToken=REDACTED&fields=all&limit=50&offset=0&orderBy=fields.published_date:desc"
                + "&q=type%20eq%20%22OCEGettingStartedArticle%22%20and%20fields.topic%20eq%20"
                + "%22CORE141A251016B815034E10D61C414604D1%22&totalResults=true")
        let read = try await BlogRequestTests.urls("read @1", after: "home; articles @2")
        #expect(read == ["/items/CORE921024665929F922DB67CC505229ABC5?channelToken=REDACTED&expand=fields.author"])
    }

    @Test("topics: each topic re-read with expand=all (§3.2) and counted")
    func topics() async throws {
        let urls = try await BlogRequestTests.urls("topics")
        #expect(urls.count == 1 + 7 * 2)
        #expect(urls.contains("/items/CORE141A251016B815034E10D61C414604D1?channelToken=REDACTED&expand=all"))
    }
}
