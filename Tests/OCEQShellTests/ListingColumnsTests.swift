// Issue 18, point 1: a listing's columns follow the query (the fields asked for, the order field,
// no column a single-valued filter pins), references by name, widths that favour what was asked,
// and csv and ndjson carry the columns the table shows.

import DeliveryKit
import Foundation
import OCEQCore
import OCEQLanguage
import Testing

@testable import OCEQShell

@Suite("Listing columns follow the query")
@MainActor
struct ListingColumnsTests {
    /// The column names `statement` gives (without the table's `#`).
    func columns(_ statement: String) throws -> [String] {
        let (session, _, _) = makeSession(connection: offlineConnection)
        guard case .select(let select) = Parser.parse(statement).statements.first else {
            Issue.record("not a select: \(statement)")
            return []
        }
        return try SelectRunner.compiled(select, in: session).columns.map(\.name)
    }

    @Test(
        "the columns of a query",
        arguments: [
            ("list", ["id", "type", "name", "description"]),
            ("list type=OCEGettingStartedArticle", ["id", "name", "description"]),
            ("list type=A order published_date desc", ["id", "name", "description", "published_date"]),
            ("list type=A fields published_date,topic", ["id", "published_date", "topic"]),
            ("list type=A fields topic order published_date", ["id", "topic", "published_date"]),
            ("list type=A topic=CORE1 fields topic,author", ["id", "topic", "author"]),
            ("list type=A topic=CORE1 order name", ["id", "name", "description"]),
            ("list order updatedDate desc", ["id", "type", "name", "description", "updatedDate"]),
            ("list type=A or type=B", ["id", "type", "name", "description"]),
            ("list type in (A, B) fields all order updatedDate", ["id", "type", "name", "description", "updatedDate"]),
            ("first name=x", ["id", "type", "description"]),
        ])
    func query(statement: String, expected: [String]) throws {
        #expect(try columns(statement) == expected)
    }

    @Test("the order field is asked of the server, which sends only the summary without fields")
    func fieldsSent() throws {
        let (session, _, _) = makeSession(connection: offlineConnection)
        func sent(_ text: String) throws -> String? {
            guard case .select(let select) = Parser.parse(text).statements.first else { return "?" }
            return try SelectRunner.compile(select, in: session).fields
        }
        #expect(try sent("list type=A order published_date desc") == "name,description,fields.published_date")
        #expect(try sent("list type=A order name") == nil)
        #expect(try sent("list fields topic order published_date") == "fields.topic,fields.published_date")
        #expect(try sent("list fields all order published_date") == "all")
        #expect(try sent("count type=A") == nil)
    }

    static let statements = [
        "list type=OCEGettingStartedArticle order published_date desc limit 5",
        "list type=OCEGettingStartedArticle fields published_date,topic,author order name limit 4",
        "list order updatedDate desc limit 4",
    ]

    @Test("golden listings at 160, 120 and 80 columns", arguments: [160, 120, 80])
    func golden(width: Int) async throws {
        let connection = try #require(sampleConnection)
        let (session, output, errors) = makeSession(connection: connection, width: width)
        let code = await ScriptRunner.run(
            text: Self.statements.joined(separator: "\n"), fileName: "t.oceq", in: session, keepGoing: false)
        #expect(code == 0, "\(errors.text)")
        expectGolden(output.text, named: "listing-columns-\(width).txt")
        for line in output.text.split(separator: "\n") {
            #expect(TerminalText.width(of: String(line)) <= width, "\(line)")
        }
    }

    @Test("at 120 columns a query's order column is whole and description keeps more than ten columns")
    func favoursWhatWasAsked() async throws {
        let connection = try #require(sampleConnection)
        let (session, output, _) = makeSession(connection: connection, width: 120)
        _ = await ScriptRunner.run(text: Self.statements[0], fileName: "t.oceq", in: session, keepGoing: false)
        let header = try #require(output.text.split(separator: "\n").first.map(String.init))
        let rule = try #require(output.text.split(separator: "\n").dropFirst().first.map(String.init))
        let widths = rule.split(separator: " ").map(\.count)
        #expect(header.hasSuffix("published_date"))
        #expect(!header.contains("type"))
        #expect(widths.last == 29)  // 2026-04-20T08:15:00.000+10:00, whole
        #expect(widths[3] > 10, "\(rule)")
    }

    @Test("csv and ndjson carry the table's columns; references by name in csv, as {id,type,name} in ndjson")
    func csvAndNDJSON() async throws {
        let connection = try #require(sampleConnection)
        let statement = "list type=OCEGettingStartedArticle fields published_date,topic limit 2"
        let (csvSession, csv, _) = makeSession(connection: connection)
        csvSession.settings.format = .csv
        _ = await ScriptRunner.run(text: statement, fileName: "t.oceq", in: csvSession, keepGoing: false)
        let lines = csv.text.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,published_date,topic")
        #expect(lines[1].hasSuffix(",Espresso & Milk") || lines[1].contains(",\""), "\(lines[1])")
        #expect(!lines[1].contains("CORE141A"), "a reference shows its name, not its id")
        let (ndSession, ndjson, _) = makeSession(connection: connection)
        ndSession.settings.format = .ndjson
        _ = await ScriptRunner.run(text: statement, fileName: "t.oceq", in: ndSession, keepGoing: false)
        let first = try JSON.parse(String(ndjson.text.split(separator: "\n")[0]))
        #expect(first.objectValue.map { Set($0.keys) } == ["id", "published_date", "topic"])
        #expect(first["topic"]?["name"]?.stringValue != nil)
        #expect(first["topic"]?["id"]?.stringValue?.hasPrefix("CORE") == true)
    }

    @Test("expanded shows a shaped listing in the table's columns and order, as psql's \\x does")
    func expandedColumns() async throws {
        let connection = try #require(sampleConnection)
        let (session, output, _) = makeSession(connection: connection)
        session.settings.format = .expanded
        _ = await ScriptRunner.run(
            text: "list type=OCEGettingStartedArticle fields name, topic, published_date limit 1", fileName: "t.oceq",
            in: session, keepGoing: false)
        let names = output.text.split(separator: "\n").dropFirst().prefix(4).map {
            $0.split(separator: " ").first ?? ""
        }
        // Before: every member of the hit in the item view's order (type, an empty description,
        // fields.published_date before fields.topic), not the columns asked for.
        #expect(names == ["id", "name", "topic", "published_date"], "\(output.text)")
        #expect(output.text.contains("topic           Espresso & Milk (CORE141A251016B815034E10D61C414604D1)"))
        #expect(!output.text.contains("description"))
    }

    @Test("a nameless reference gets the name looked up for it")
    func namelessReference() {
        let names = ["CORE1": "Espresso"]
        let value: JSON = ["id": "CORE1", "type": "Topic"]
        #expect(ReferenceNames.named(value, names)["name"]?.stringValue == "Espresso")
        #expect(ReferenceNames.named(.array([value]), names)[0]?["name"]?.stringValue == "Espresso")
        let named: JSON = ["id": "CORE1", "type": "Topic", "name": "Kept"]
        #expect(ReferenceNames.named(named, names)["name"]?.stringValue == "Kept")
        let column = ListingColumn(field: "fields.topic")
        let asset = try! Asset(json: ["id": "X", "type": "A", "fields": ["topic": value]])
        #expect(column.namelessReferences(in: asset) == ["CORE1"])
        #expect(column.text(in: asset) == "CORE1")
    }
}
