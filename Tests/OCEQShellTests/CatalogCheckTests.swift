import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQApp
import OCEQCore
import OCEQLanguage
import OCEQTestSupport
import Testing

@testable import OCEQShell

/// One statement checked against a channel's catalog: `⟦`…`⟧` mark where the diagnostic points,
/// `message` is its whole text.
struct CatalogCase: CustomTestStringConvertible, Sendable {
    var input: String
    var message: String

    init(_ input: String, _ message: String) {
        self.input = input
        self.message = message
    }

    var testDescription: String { input }
}

/// The issue's cases and more, against the bundled sample channel.
let sampleCatalogCases: [CatalogCase] = [
    CatalogCase(
        "list type=OCEGettingStartedArticle ⟦nmae⟧ ^= \"Co\"",
        "no field 'nmae' in type 'OCEGettingStartedArticle'; did you mean 'name'?"),
    CatalogCase(
        "list type=OCEGettingStartedArticle ⟦publishd_date⟧ >= 2026-01-01",
        "no field 'publishd_date' in type 'OCEGettingStartedArticle'; did you mean 'published_date'?"),
    CatalogCase(
        "list type=OCEGettingStartedArticle order ⟦publish_date⟧ desc",
        "no field 'publish_date' in type 'OCEGettingStartedArticle'; did you mean 'published_date'?"),
    CatalogCase(
        "list type=OCEGettingStartedArticle order ⟦author⟧",
        "cannot order by 'author' (reference); the API sorts on 'name', 'createdDate', 'updatedDate' and "
            + "'published_date'"),
    CatalogCase(
        "list type=⟦OCEGettingStartedArticel⟧",
        "no type 'OCEGettingStartedArticel' in this channel; did you mean 'OCEGettingStartedArticle'?"),
    CatalogCase(
        "count type in (OCEGettingStartedArticle, ⟦OCEGettingStartedTopc⟧)",
        "no type 'OCEGettingStartedTopc' in this channel; did you mean 'OCEGettingStartedTopic'?"),
    CatalogCase(
        "count type=OCEGettingStartedArticle published_date >= ⟦2026⟧",
        "'2026' is not a date for 'published_date'; a year alone is not a date; write 2026-01-01"),
    CatalogCase(
        "count type=OCEGettingStartedArticle published_date < ⟦yesterday⟧",
        "'yesterday' is not a date for 'published_date'; write a date, such as 2026-01-01 or 2026-01-01T09:30:00Z"),
    CatalogCase(
        "count type=OCEGettingStartedArticle ⟦topic ~ Recipes⟧",
        "'~' does not apply to 'topic' (reference); use = !="),
    CatalogCase(
        "count type=OCEGettingStartedArticle ⟦published_date ^= 2026-01-01⟧",
        "'^=' does not apply to 'published_date' (date); use = != > >= < <="),
    CatalogCase(
        "list ⟦updatedDate ^= 2021⟧",
        "'^=' does not apply to 'updatedDate' (date); use = != > >= < <="),
    CatalogCase(
        "count type=Image size >= ⟦big⟧",
        "'big' is not a number for 'size'; write a whole number, such as 42"),
    CatalogCase(
        "count type=OCEGettingStartedArticle topic=⟦Recipies⟧",
        "no OCEGettingStartedTopic named 'Recipies' for 'topic'; did you mean 'Recipes'?"),
    CatalogCase(
        "count type=OCEGettingStartedArticle topic=⟦R⟧",
        "'R' names more than one item for 'topic': 'Roasting' and 'Recipes'; write more of the name, or its id"),
    CatalogCase(
        "count type=OCEGettingStartedArticle topic in (Recipes, ⟦Nothing⟧)",
        "no OCEGettingStartedTopic named 'Nothing' for 'topic'; there are 'Brewing at Home', 'Coffee Origins', "
            + "'Equipment', 'Espresso & Milk', 'Recipes', 'Roasting' and 'Sustainability'"),
    CatalogCase("list ⟦nmae⟧ = x", "no type of this channel has a field 'nmae'; did you mean 'name'?"),
    CatalogCase(
        "count ⟦updated⟧ > 2022-06-01T00:00Z",
        "no type of this channel has a field 'updated'; did you mean 'updatedDate'?"),
    CatalogCase(
        "count taxonomies=⟦Espreso⟧",
        "no taxonomy or category named 'Espreso' for 'taxonomies'; did you mean 'Espresso'?"),
    CatalogCase(
        "count taxonomies.categories.nodes.id=⟦\"Café Supremo Guide\"⟧",
        "no category named 'Café Supremo Guide' for 'taxonomies.categories.nodes.id'; there are 'Africa', "
            + "'Americas', 'Espresso', 'Ethiopia', 'Filter', 'Methods' and 'Origins'"),
    CatalogCase(
        "first type=OCEGettingStartedArticle fields name, ⟦publishd_date⟧",
        "no field 'publishd_date' in type 'OCEGettingStartedArticle'; did you mean 'published_date'?"),
]

/// Cases against the real 2021 export, whose field names have dashes and underscores.
let templateCatalogCases: [CatalogCase] = [
    CatalogCase(
        "list type=Starter-Blog-Post ⟦starter-blog-post_autor⟧ = x",
        "no field 'starter-blog-post_autor' in type 'Starter-Blog-Post'; did you mean 'starter-blog-post_author'?"),
    CatalogCase(
        "list type=⟦starter-blog-post⟧",
        "no type 'starter-blog-post' in this channel; did you mean 'Starter-Blog-Post'?"),
    CatalogCase(
        "list type=Starter-Blog-Post order ⟦starter-blog-post_author⟧",
        "cannot order by 'starter-blog-post_author' (reference); the API sorts on 'name', 'createdDate' and "
            + "'updatedDate'"),
    CatalogCase(
        "count type=Starter-Blog-Post starter-blog-post_author = ⟦\"Alex Reed\"⟧",
        "no Starter-Blog-Author named 'Alex Reed' for 'starter-blog-post_author'; did you mean 'Alex Read'?"),
]

/// The 2021 blog template export, served in-process. Unwrap it with `#require` on a line of its own:
/// passed straight to a parameter that takes an optional, `#require` wraps it in another optional and
/// requires nothing.
let templateConnection: Connection? = {
    let credentials = Credentials(
        url: repositoryRoot.appendingPathComponent(
            "Tests/ChannelServerTests/Fixtures/exports/BlogTemplate-2021-export.zip"
        )
        .path,
        channelToken: "2021-template-token")
    return try? Connection.open(credentials, opener: InProcessServer())
}()

/// The diagnostics of `text` compiled in `session` after its catalog is read, as the interpreter does.
@MainActor
func catalogDiagnostics(_ text: String, in session: Session) async throws -> [Diagnostic] {
    let parsed = Parser.parse(text, options: session.parserOptions)
    #expect(!parsed.hasErrors, "\(text) parses")
    let statement = try #require(parsed.statements.first)
    await session.prepareCatalog(for: statement)
    guard case .select(let select) = statement else { return [] }
    do {
        _ = try session.compiler.compile(select)
        return []
    } catch {
        return error.diagnostics
    }
}

@MainActor
func expectDiagnostic(_ check: CatalogCase, connection: Connection?) async throws {
    let marked = MarkedInput(check.input)
    let open = try #require(connection)
    let (session, _, _) = makeSession(connection: open)
    let diagnostics = try await catalogDiagnostics(marked.text, in: session)
    let first = try #require(diagnostics.first, "no diagnostic for \(check.input)")
    #expect(diagnostics.count == 1, "\(diagnostics.map(\.text))")
    #expect(first.text == check.message)
    #expect(first.span.start == marked.start, "\(first.text) at \(first.span)")
    if let end = marked.end { #expect(first.span.end == end, "\(first.text) at \(first.span)") }
}

@Suite("Checks against the channel's catalog")
@MainActor
struct CatalogCheckTests {
    @Test(
        "each wrong statement on the sample channel is one diagnostic at the marked name", arguments: sampleCatalogCases
    )
    func sampleChannel(_ check: CatalogCase) async throws {
        try await expectDiagnostic(check, connection: sampleConnection)
    }

    @Test(
        "each wrong statement on the 2021 export is one diagnostic at the marked name", arguments: templateCatalogCases)
    func templateExport(_ check: CatalogCase) async throws {
        try await expectDiagnostic(check, connection: templateConnection)
    }

    @Test(
        "right statements pass the checks",
        arguments: [
            "list type=OCEGettingStartedArticle name ^= Co order published_date desc",
            "count type=OCEGettingStartedArticle published_date >= 2026-01-01",
            "count type=OCEGettingStartedArticle topic=@1",
            "count type=OCEGettingStartedArticle topic=COREF6C0EA64ED7A3BB6322425A22527158C",
            "list name ~ tea or name ~ milk",
            "count type=OCEGettingStartedArticle topic=recipes",
            "count type=OCEGettingStartedArticle author=\"Hana Kim\"",
        ])
    func rightStatements(_ text: String) async throws {
        let connection = try #require(sampleConnection)
        let (session, _, _) = makeSession(connection: connection)
        session.lastRows = []
        let diagnostics = try await catalogDiagnostics(text, in: session).filter(\.message.isCatalogCheck)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.text))")
    }

    @Test("topic=Recipes and topic=<id of Recipes> return the same rows, and explain says what was resolved")
    func nameAndIdSameRows() async throws {
        let connection = try #require(sampleConnection)
        let (session, output, _) = makeSession(connection: connection)
        func rows(_ text: String) async throws -> [String] {
            let statement = try #require(Parser.parse(text, options: session.parserOptions).statements.first)
            guard case .items(let listing) = try await Interpreter.execute(statement, in: session) else {
                Issue.record("\(text) gave no rows")
                return []
            }
            return listing.items.map(\.id)
        }
        let topic = try #require(try await rows("first type=OCEGettingStartedTopic name = \"Recipes\"").first)
        let byName = try await rows("list type=OCEGettingStartedArticle topic=Recipes limit 100")
        let byID = try await rows("list type=OCEGettingStartedArticle topic=\(topic) limit 100")
        #expect(!byName.isEmpty)
        #expect(byName == byID)
        let both = try await rows("list type=OCEGettingStartedArticle topic in (Recipes, Roasting) limit 100")
        #expect(both.count > byName.count)

        let explain = try #require(
            Parser.parse("explain count type=OCEGettingStartedArticle topic=recipes", options: session.parserOptions)
                .statements.first)
        _ = try await Interpreter.perform(explain, in: session)
        #expect(output.text.contains("fields.topic eq \"\(topic)\""))
        #expect(output.text.contains("note: topic=recipes is sent as the id of 'Recipes': \(topic)"))
    }

    @Test("a category or taxonomy named in a condition counts what its id counts; explain says which id it sent")
    func taxonomyNames() async throws {
        let connection = try #require(sampleConnection)
        // Espresso (AD2D…) is a category under Methods (444E…) of the Café Supremo Guide (CSG, DDD3…).
        let script = """
            count taxonomies=Espresso
            count taxonomies=AD2DD24D6CB61F377312C8CA0F68467A
            count taxonomies.categories.nodes.id=methods
            count taxonomies.categories.nodes.id=444E4DE4EBE9796474AB3AC678DD2C35
            count taxonomies=CSG
            count taxonomies=DDD3FCE274FD927341A40AFE3EFE35E7
            explain count taxonomies=csg-methods-espresso
            """
        let run = await runScript(script, connection: connection)
        #expect(run.code == 0, "\(run.errors)")
        let counts = run.output.split(separator: "\n").prefix(6).map { Int($0) }
        #expect(counts == [1, 1, 2, 2, 3, 3], "\(run.output)")
        #expect(run.output.contains("(taxonomies eq \"AD2DD24D6CB61F377312C8CA0F68467A\")"))
        #expect(
            run.output.contains(
                "note: taxonomies=csg-methods-espresso is sent as the id of 'Espresso (Café Supremo Guide)': "
                    + "AD2DD24D6CB61F377312C8CA0F68467A"))
        let wrong = await runScript("echo before\ncount taxonomies=Espreso", connection: connection)
        #expect(wrong.code == 2, "a name that names nothing stops the script before it runs: \(wrong.errors)")
        #expect(wrong.output.isEmpty)
    }

    @Test("a date without an offset is midnight UTC to oceq serve, as explain's note says")
    func datesWithoutOffset() async throws {
        let connection = try #require(sampleConnection)
        // Spiced Maple Latte: published 2026-04-20T08:15+10:00, which is 2026-04-19T22:15Z.
        let script = """
            count type=OCEGettingStartedArticle slug=spiced-maple-latte published_date >= 2026-04-20
            count type=OCEGettingStartedArticle slug=spiced-maple-latte published_date >= 2026-04-20T00:00+10:00
            count type=OCEGettingStartedArticle slug=spiced-maple-latte published_date >= 2026-04-19T22:15Z
            explain count type=OCEGettingStartedArticle published_date >= 2026-04-20
            """
        let run = await runScript(script, connection: connection)
        #expect(run.code == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("0\n1\n1\n"), "\(run.output)")
        #expect(run.output.contains("note: 2026-04-20 has no UTC offset: the server reads it in a zone of its own"))
    }

    @Test(
        "get ... expand NAME is checked as list's expand is: before the script runs, against the row's type in the REPL"
    )
    func getExpand() async throws {
        let connection = try #require(sampleConnection)
        // Before: the server's raw 400 "Invalid fields : User defined fields [autor] does not exist ...".
        let script = await runScript(
            "echo start\nget CORE034E9E5F88CD31495EB4166E81ECB6AD expand autor\n", connection: connection)
        #expect(script.code == 2)
        #expect(!script.output.contains("start"))
        #expect(
            script.errors.contains(
                "test.oceq:2:49: error: no type of this channel has a field 'autor'; did you mean 'author'?"),
            "\(script.errors)")
        // At the prompt, once the rows are known, the row's type is the scope.
        let (session, _, _) = makeSession(connection: connection)
        _ = await ScriptRunner.run(text: "list type=OCEGettingStartedArticle limit 1", fileName: "t.oceq", in: session)
        do {
            _ = try await Interpreter.execute(Parser.parse("get @1 expand autor").statements[0], in: session)
            Issue.record("get @1 expand autor ran")
        } catch {
            #expect(
                "\(error)".contains("no field 'autor' in type 'OCEGettingStartedArticle'; did you mean 'author'?"),
                "\(error)")
        }
        let right = await runScript("get CORE034E9E5F88CD31495EB4166E81ECB6AD expand author\n", connection: connection)
        #expect(right.code == 0, "\(right.errors)")
        #expect(right.output.contains("Priya Natarajan"))
    }

    @Test("the home page's list of topics is searched by a topic's name with = or ~, as membership (co)")
    func listOfReferences() async throws {
        let connection = try #require(sampleConnection)
        let script = """
            count type=OCEGettingStartedHomePage topics = Recipes
            count type=OCEGettingStartedHomePage topics ~ Recipes
            count type=OCEGettingStartedHomePage topics != Recipes
            explain count type=OCEGettingStartedHomePage topics = Recipes
            """
        let run = await runScript(script, connection: connection)
        #expect(run.code == 0, "\(run.errors)")
        // `~ Recipes` was sent as the word and counted 0.
        #expect(run.output.hasPrefix("1\n1\n0\n"), "\(run.output)")
        // So did a taxonomy field with ~, which the shell now reads the names for as it does for =.
        let taxonomy = await runScript(
            "count taxonomies ~ Espresso\ncount taxonomies = Espresso\n", connection: connection)
        #expect(taxonomy.code == 0, "\(taxonomy.errors)")
        #expect(taxonomy.output == "1\n1\n", "\(taxonomy.output)")
        #expect(run.output.contains("fields.topics co \"COREF6C0EA64ED7A3BB6322425A22527158C\""))
        #expect(run.output.contains("note: 'topics' is a list: = and != are sent as co and NOT co"))
    }

    @Test("= compares a standard field exactly and a custom text field in any case, ~ whole words, as help list says")
    func equalsAndCase() async throws {
        let connection = try #require(sampleConnection)
        let script = """
            count name = "Spiced Maple Latte"
            count name = "spiced maple latte"
            count type=OCEGettingStartedArticle image_caption = "Milk folding into espresso."
            count type=OCEGettingStartedArticle image_caption = "MILK FOLDING INTO ESPRESSO."
            count name ~ ratio
            count name =~ "ratio*"
            help list
            """
        let run = await runScript(script, connection: connection)
        #expect(run.code == 0, "\(run.errors)")
        let counts = run.output.split(separator: "\n").prefix(6).map { Int($0) }
        #expect(counts[0] == 1 && counts[1] == 0, "\(run.output)")
        #expect(counts[2] != nil && counts[2] != 0 && counts[2] == counts[3], "\(run.output)")
        #expect(counts[4] == 0 && counts[5] == 1, "~ matches whole words, =~ a pattern: \(run.output)")
        #expect(run.output.contains("equals; a standard field exactly,"))
        #expect(run.output.contains("whole words: ~ ratio misses \"Ratios\""))
    }

    @Test("an author's name in the 2021 export counts what the author's id counts")
    func templateAuthorByName() async throws {
        let script = """
            count type=Starter-Blog-Post starter-blog-post_author="Alex Read"
            count type=Starter-Blog-Post starter-blog-post_author=CORECE3370197DB34D77A2D5D4DC0118B9C8
            """
        let connection = try #require(templateConnection)
        let run = await runScript(script, connection: connection)
        #expect(run.code == 0, "\(run.errors)")
        let counts = run.output.split(separator: "\n")
        #expect(counts.count == 2)
        #expect(counts.first == counts.last)
        #expect(counts.first != "0")
    }

    @Test("a row or variable holding an item of another type, compared with a reference field, stops the script")
    func referenceOfOtherType() async throws {
        let connection = try #require(sampleConnection)
        let script = """
            let topic = first type=OCEGettingStartedTopic name = "Recipes"
            list type=Image order name limit 2
            count type=OCEGettingStartedArticle topic = $topic
            count type=OCEGettingStartedArticle topic = @2
            echo never
            """
        let run = await runScript(script, connection: connection)
        #expect(run.code == 1)
        #expect(!run.output.contains("never"))
        let lines = run.output.split(separator: "\n")
        #expect(lines.last.flatMap { Int($0) }.map { $0 > 0 } == true, "$topic, a topic, counts: \(run.output)")
        #expect(
            run.errors.hasPrefix("test.oceq:4:45: error: '@2' is "),
            "the caret under @2, not (0 rows): \(run.errors)")
        #expect(run.errors.contains("(Image), but 'topic' refers to OCEGettingStartedTopic items"))
    }

    @Test(
        "a type or a name that reaches a statement through a script argument or a parameter is checked like one written"
    )
    func valuesHeldByReferences() async throws {
        let connection = try #require(sampleConnection)
        let byArgument = "count type=OCEGettingStartedArticle topic=$1\n"
        let recipes = await runScript(byArgument, connection: connection, arguments: ["recipes"])
        let written = await runScript("count type=OCEGettingStartedArticle topic=Recipes\n", connection: connection)
        #expect(recipes.code == 0 && written.code == 0, "\(recipes.errors) \(written.errors)")
        #expect(recipes.output == written.output && recipes.output != "0\n", "an argument naming a topic is its id")
        let wrong = await runScript(byArgument, connection: connection, arguments: ["Baking"])
        #expect(wrong.code == 1, "found when it runs: the arguments are not known to the check before")
        #expect(wrong.errors.hasPrefix("test.oceq:1:43: error: no OCEGettingStartedTopic named 'Baking' for 'topic'"))

        let command = """
            define recent(t, n = 2)
              list type=$t order updatedDate desc limit $n
            end
            recent OCEGettingStartedTopic
            recent Imag
            echo never
            """
        let run = await runScript(command, connection: connection)
        #expect(run.code == 1)
        #expect(run.output.contains("(2 rows of 7)"), "\(run.output)")
        #expect(!run.output.contains("never") && !run.output.contains("(0 rows)"))
        #expect(run.errors.hasPrefix("test.oceq:2:13: error: no type 'Imag' in this channel; did you mean 'Image'?"))

        // A type given through an argument or parameter is the statement's one type, so a user field may
        // order it (before the script runs the value is not known, and nothing is refused for it).
        let ordered = await runScript(
            "list type=$1 order published_date desc limit 2\n", connection: connection,
            arguments: ["OCEGettingStartedArticle"])
        #expect(ordered.code == 0, "\(ordered.errors)")
        #expect(ordered.output.contains("(2 rows of 60)"))
        let wrongType = await runScript(
            "list type=$1 order published_date desc limit 2\n", connection: connection, arguments: ["Image"])
        #expect(wrongType.code == 1)
        #expect(wrongType.errors.contains("no field 'published_date' in type 'Image'"), "\(wrongType.errors)")
    }

    @Test("a script with a wrong name stops with exit 2 before its first statement runs")
    func scriptStopsBeforeRunning() async throws {
        let connection = try #require(sampleConnection)
        let run = await runScript(
            "count type=OCEGettingStartedArticle\nlist type=OCEGettingStartedArticle nmae ^= \"Co\"\n",
            connection: connection)
        #expect(run.code == 2)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix("test.oceq:2:36: error: no field 'nmae' in type 'OCEGettingStartedArticle'"))
        // A first statement that reads no catalog (echo, a bare count) used to end the check: the rest ran
        // unchecked until the wrong name was reached.
        for first in ["echo start", "count", "set format json"] {
            let late = await runScript("\(first)\nlist type=Imag\n", connection: connection)
            #expect(late.code == 2, "\(first)")
            #expect(late.output.isEmpty, "\(first): \(late.output)")
            #expect(late.errors.hasPrefix("test.oceq:2:11: error: no type 'Imag' in this channel"), "\(late.errors)")
        }
    }

    @Test("a catalog that cannot be read warns once and the statements run unchecked")
    func unreadableCatalog() async throws {
        let port = try ClosedPort()
        let configuration = try DeliveryConfiguration(
            url: "http://127.0.0.1:\(port.port)", channelToken: "closed-token")
        let connection = Connection(client: DeliveryClient(configuration: configuration), channelName: "closed")
        let run = await runScript(
            "count type=OCEGettingStartedArticel nmae=x\ncount type=Nothing\n", connection: connection, keepGoing: true)
        let lines = run.errors.split(separator: "\n")
        let warnings = lines.filter { $0.hasPrefix("warning: the channel's types and fields could not be read") }
        #expect(warnings.count == 1, "\(run.errors)")
        // Unchecked: each statement was sent, and failed for the closed port, not for its names.
        #expect(!run.errors.contains("no type"))
        #expect(lines.filter { $0.contains("error:") }.count == 2, "\(run.errors)")
        #expect(run.code == 1)
    }

    @Test("names from a hostile catalog are cleaned before they appear in a diagnostic")
    func hostileNames() throws {
        let field: JSON = [
            "name": "evil\u{1B}]0;owned\u{07}", "datatype": "text", "valuecount": "single", "sortable": false,
        ]
        let catalog: JSON = [
            "x-ocm-types": ["Bad\u{1B}[31mType"],
            "$defs": ["Bad\u{1B}[31mType": ["x-ocm-fields": .array([field])]],
        ]
        let served = try #require(ChannelCatalog.schema(metadataCatalog: catalog))
        #expect(served.typeNames == ["Bad\u{1B}[31mType"])
        let schema = ChannelCatalog.displayable(served)
        #expect(schema.typeNames == ["Bad[31mType"])
        let fieldName = try #require(schema.types["Bad[31mType"]?.fields.first?.name)
        #expect(!fieldName.unicodeScalars.contains { $0.value < 0x20 })
        let compiler = Compiler(environment: StaticEnvironment(schema: schema))
        let select = try #require(
            Parser.parse("list order evil").statements.first.flatMap { statement -> SelectStatement? in
                if case .select(let select) = statement { return select }
                return nil
            })
        #expect(throws: DiagnosticError.self) { try compiler.compile(select) }
        do {
            _ = try compiler.compile(select)
        } catch {
            let text = error.diagnostics.map(\.text).joined()
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        }
    }

    @Test("without a metadata catalog, fields and data types are read from sample values")
    func sampledFields() throws {
        let samples: [[String: JSON]] = [
            ["title": "Hello", "count": .null, "topic": ["id": "CORE1", "type": "Topic", "name": "Recipes"]],
            [
                "title": "World", "count": 3, "when": ["value": "2026-01-01T00:00:00Z", "timezone": "UTC"],
                "tags": ["a", "b"],
            ],
        ]
        let fields = Dictionary(uniqueKeysWithValues: ChannelCatalog.sampledFields(samples).map { ($0.name, $0) })
        #expect(fields["title"]?.dataType == .text)
        #expect(fields["count"]?.dataType == .number)
        #expect(fields["count"]?.isSortable == true)
        #expect(fields["when"]?.dataType == .datetime)
        #expect(fields["topic"]?.dataType == .reference)
        #expect(fields["topic"]?.referenceTypes == ["Topic"])
        #expect(fields["topic"]?.isSortable == false)
        #expect(fields["tags"]?.isList == true)
        #expect(fields["title"]?.isSortable == false)
    }
}
