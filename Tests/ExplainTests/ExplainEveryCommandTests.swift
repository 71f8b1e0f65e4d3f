// `explain` tells the truth about every command (issue 17, item 4): each registered command
// declares what it sends; `explain EXAMPLE` of each example lists requests or says why there are
// none (never a bare "sends no request"); what it says is none is none; and for the commands that
// read and download, the requests explained are exactly the ones the command then sends.

import DeliveryKit
import Foundation
import OCEQCore
import OCEQLanguage
import OCEQShell
import OCEQTestSupport
import Testing

@Suite("explain of every command")
@MainActor
struct ExplainEveryCommandTests {
    /// Examples that cannot run in a test's fresh HOME, and the error they give.
    static let cannotRun: [String: String] = ["connect staging": "no profile 'staging'"]

    /// Commands that may refuse to explain, and why (checked against the refusal's text).
    static let mayRefuse: [String: String] = [
        "source": "runs the statements of a file",
        "connect": "an export is served on a loopback port",
    ]

    /// Statements that give the examples something to refer to: rows, variables.
    static let setup = """
        let topic = first type=OCEGettingStartedTopic
        let n = 3
        list type=Image limit 3
        """

    @Test("every registered command declares what it sends")
    func everyCommandHasAPlan() {
        var missing: [String] = []
        for descriptor in allDescriptors() where descriptor.plan == nil { missing.append(descriptor.name) }
        #expect(missing.isEmpty, "commands without a plan: \(missing)")
        #expect(allDescriptors().count >= 27)
    }

    @Test("explain of every example lists its requests or says truthfully why it sends none")
    func everyExampleExplains() async throws {
        let shell = try Shell()
        var explained: Set<String> = []
        for descriptor in allDescriptors() {
            let name = descriptor.name
            for example in descriptor.examples {
                let parsed = Parser.parse("explain " + example, options: fullRegistry.parserOptions)
                if parsed.hasErrors {
                    // `let` and `explain` cannot be explained by the grammar; their plan is checked directly.
                    let inner = Parser.parse(example, options: fullRegistry.parserOptions)
                    let statement = try #require(inner.statements.first, "\(example) does not parse")
                    let plan = try CorePlans.plan(statement, in: shell.session)
                    switch plan {
                    case .requests(let requests, _): #expect(!requests.isEmpty, "\(example)")
                    case .noRequest(let reason): #expect(!reason.isEmpty, "\(example)")
                    case .unknown(let reason): Issue.record("\(example) cannot say: \(reason)")
                    }
                    explained.insert(name)
                    continue
                }
                _ = await shell.run(Self.setup)
                let result = await shell.run("explain " + example)
                let text = result.output + result.errors
                #expect(!text.contains("sends no request\n"), "\(example): a bare 'sends no request'")
                if text.contains("sends no request: ") {
                    #expect(result.code == 0)
                    explained.insert(name)
                } else if text.contains(" request:\n") || text.contains(" requests, in order:\n")
                    || text.hasPrefix("GET /items") || text.hasPrefix("POST /graphql\n")
                {
                    #expect(text.contains("url   http://127.0.0.1:") || text.contains("url   https://"), "\(example)")
                    #expect(!text.contains("935a30048d49b8479c9bc1577e392eba"), "the token is shown: \(example)")
                    explained.insert(name)
                } else if text.contains("explain cannot say what '\(name)' sends") {
                    let why = try #require(Self.mayRefuse[name], "\(name) refuses: \(text)")
                    #expect(text.contains(why), "\(example): \(text)")
                    explained.insert(name)
                } else if let error = Self.cannotRun[example] {
                    #expect(text.contains(error), "\(example): \(text)")
                } else {
                    Issue.record("explain \(example) said: \(text)")
                }
            }
        }
        let all = Set(allDescriptors().map(\.name))
        #expect(explained == all, "not explained: \(all.subtracting(explained).sorted())")
    }

    @Test(
        "a command explained as sending nothing sends nothing",
        arguments: [
            "echo \"Articles:\" hello", "set format json", "help list", "refresh", "plugins",
            "explain list type=Image", "let n = 3", "define hi(); echo hi; end",
        ])
    func noRequestIsTrue(_ statement: String) async throws {
        let shell = try Shell()
        // The catalog read once a session is planned and sent before the first statement that needs it.
        #expect((await shell.run("count type=Image")).code == 0)
        let parsed = Parser.parse(statement, options: fullRegistry.parserOptions)
        let plan = try CorePlans.plan(try #require(parsed.statements.first), in: shell.session)
        guard case .noRequest = plan else {
            Issue.record("\(statement) plans \(plan)")
            return
        }
        _ = shell.sent()
        let result = await shell.run(statement)
        #expect(result.code == 0, "\(result.errors)")
        #expect(shell.sent() == [])
    }

    @Test("the first statement checked against the catalog plans and sends the catalog read first")
    func catalogIsPlanned() async throws {
        let (planned, sent, _) = try await plannedAndSent("count type=Image", after: "echo")
        #expect(planned.count == 2)
        #expect(planned.first?.contains("/metadata-catalog/items?") == true)
        #expect(sent.count == planned.count, "\(sent)")
        for (plan, url) in zip(planned, sent) {
            #expect(PlanValue.matches(planned: plan, sent: url), "planned \(plan)\nsent    \(url)")
        }
        let shell = try Shell()
        #expect((await shell.run("count type=Image")).code == 0)
        let parsed = Parser.parse("count type=Image", options: fullRegistry.parserOptions)
        let plan = try CorePlans.plan(try #require(parsed.statements.first), in: shell.session)
        #expect(plan.requests.count == 1, "once read, the catalog is not planned again")
    }

    /// Runs `setup`, plans `statement`, runs it, and returns the planned and the sent URLs.
    func plannedAndSent(
        _ statement: String, after setup: String, terminal: Bool = false
    ) async throws -> (planned: [String], sent: [String], output: String) {
        let shell = try Shell(terminal: terminal)
        let prepared = await shell.run(setup)
        #expect(prepared.code == 0, "\(prepared.errors)")
        let parsed = Parser.parse(statement, options: fullRegistry.parserOptions)
        let plan = try CorePlans.plan(try #require(parsed.statements.first), in: shell.session)
        let client = shell.connection.client
        let planned = plan.requests.compactMap { $0.prepared(client)?.url }
        #expect(planned.count == plan.requests.count)
        _ = shell.sent()
        let result = await shell.run(statement)
        #expect(result.code == 0, "\(result.errors)")
        return (planned, shell.sent(), result.output)
    }

    @Test(
        "the requests explained are the requests sent",
        arguments: [
            ("home", "echo"),
            ("read @1", "list type=OCEGettingStartedArticle limit 3"),
            ("read \"Moka Pot\"", "echo"),
            ("articles @2", "home"),
            ("articles roasting", "echo"),
            ("author @1", "author"),
            ("get @2", "list type=Image limit 3"),
            ("list type=OCEGettingStartedArticle order published_date desc limit 4", "echo"),
            ("fields (first type=OCEGettingStartedHomePage)", "echo"),
            ("fields slug:spiced-maple-latte", "echo"),
        ])
    func explainedIsSent(_ statement: String, _ setup: String) async throws {
        let (planned, sent, _) = try await plannedAndSent(statement, after: setup)
        #expect(planned.count == sent.count, "planned \(planned)\nsent \(sent)")
        for (plan, url) in zip(planned, sent) {
            #expect(PlanValue.matches(planned: plan, sent: url), "planned \(plan)\nsent    \(url)")
        }
    }

    @Test("read on a terminal explains and sends the article, its hero image and the avatar")
    func readWithImages() async throws {
        let (planned, sent, _) = try await plannedAndSent(
            "read @1", after: "set images symbols\nlist type=OCEGettingStartedArticle limit 1", terminal: true)
        #expect(planned.count == 3)
        #expect(sent.count == 3, "\(sent)")
        for (plan, url) in zip(planned, sent) {
            #expect(PlanValue.matches(planned: plan, sent: url), "planned \(plan)\nsent    \(url)")
        }
        #expect(sent.dropFirst().allSatisfy { $0.contains("/native?") })
    }

    @Test(
        "home and author on a terminal explain and send their picture as well",
        arguments: [("home", 2), ("author Priya", 4)])
    func picturesAreExplained(_ statement: String, _ count: Int) async throws {
        let (planned, sent, _) = try await plannedAndSent(statement, after: "set images symbols", terminal: true)
        #expect(planned.count == count, "\(planned)")
        #expect(sent.count == count, "\(sent)")
        for (plan, url) in zip(planned, sent) {
            #expect(PlanValue.matches(planned: plan, sent: url), "planned \(plan)\nsent    \(url)")
        }
        #expect(sent.last?.contains("/native?") == true)
    }

    @Test("download explains and sends the item read and its native file")
    func downloadIsExplained() async throws {
        let folder = TestTemporary.make("explain-download")
        defer { TestTemporary.remove(folder) }
        let (planned, sent, _) = try await plannedAndSent(
            "download @1 to \"\(folder)\"", after: "list type=Image limit 2")
        #expect(planned.count == 2)
        #expect(planned.count == sent.count, "planned \(planned)\nsent \(sent)")
        for (plan, url) in zip(planned, sent) {
            #expect(PlanValue.matches(planned: plan, sent: url), "planned \(plan)\nsent    \(url)")
        }
    }

    @Test("explain read @1 shows the article request with its url and curl line, the token redacted")
    func explainReadText() async throws {
        let shell = try Shell()
        _ = await shell.run("list type=OCEGettingStartedArticle limit 1")
        let result = await shell.run("explain read @1")
        #expect(result.code == 0)
        let id = try #require(shell.session.lastRows?.first?.id)
        #expect(result.output.hasPrefix("'read' sends 1 request:\n1  the article, its author expanded\n"))
        #expect(result.output.contains("/items/\(id)?channelToken=REDACTED&expand=fields.author\n"))
        #expect(result.output.contains("   curl  curl -sS 'http://127.0.0.1:"))
        #expect(result.output.contains("note: images are not drawn here"))
    }

    @Test("a command that cannot say is refused with one line, never 'sends no request'")
    func refusal() async throws {
        let shell = try Shell()
        let result = await shell.run("explain source Scripts/blog-tour.oceq")
        #expect(result.code != 0)
        #expect(result.output == "")
        #expect(
            result.errors.contains("error: explain cannot say what 'source' sends: it runs the statements of a file"))
    }

    @Test("placeholders match one segment of a sent url, nothing else")
    func placeholderMatching() {
        let planned = "http://h/items/%7Barticle.id%7D?expand=all"
        #expect(PlanValue.matches(planned: planned, sent: "http://h/items/CORE12?expand=all"))
        #expect(!PlanValue.matches(planned: planned, sent: "http://h/items/a/b?expand=all"))
        #expect(!PlanValue.matches(planned: planned, sent: "http://h/items/?expand=all"))
        #expect(!PlanValue.matches(planned: planned, sent: "http://h/items/CORE12?expand=none"))
        #expect(PlanValue.matches(planned: "http://h/x", sent: "http://h/x"))
    }
}
