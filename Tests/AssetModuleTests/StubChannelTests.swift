import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQShell
import Testing

/// A channel answered by a stub: one hostile item and one taxonomy with nested categories.
enum StubChannel {
    static let hostileID = "CORE11111111111111111111111111111111"

    static let hostileItem = """
        {"id": "\(hostileID)", "type": "Evil\\u001b[2J", "typeCategory": "ContentType",
         "name": "Title\\u001b]0;owned\\u0007 here", "description": "line\\nbreak\\u009b31m",
         "createdDate": {"value": "2021-03-01T10:00:00.000Z", "timezone": "UTC"},
         "fields": {"body": "<p>Hi \\u001b[31mred</p>", "count": 3, "ratio": 4.5, "flag": false,
                    "when": {"value": "2020-06-17T00:00:00.000-06:00", "timezone": "America/Denver"},
                    "tags": ["a\\u001bb", "c"], "blob": {"fred": true}, "nothing": null,
                    "ghost": {"id": "CORE99999999999999999999999999999999", "type": "Author", "name": "Ghost"}},
         "links": []}
        """

    static let taxonomies = """
        {"hasMore": false, "offset": 0, "count": 2, "limit": 100, "totalResults": 2, "links": [],
         "items": [{"id": "TAX1", "name": "Regions", "shortName": "REG", "links": []},
                   {"id": "TAX2", "name": "Regional Offices", "shortName": "OFF", "links": []}]}
        """

    static let categories = """
        {"hasMore": false, "offset": 0, "count": 3, "limit": 100, "totalResults": 3, "links": [],
         "items": [
          {"id": "C3", "name": "Cars", "apiName": "regions-europe-cars", "position": 0,
           "parent": {"id": "C1", "name": "Europe", "apiName": "regions-europe"},
           "ancestors": [{"id": "C1", "name": "Europe", "apiName": "regions-europe"}], "links": []},
          {"id": "C2", "name": "Asia", "apiName": "regions-asia", "position": 1, "ancestors": [], "links": []},
          {"id": "C1", "name": "Europe", "apiName": "regions-europe", "position": 0, "ancestors": [], "links": []}]}
        """

    static let connection: Connection = {
        let transport = StubTransport { request in
            if request.url.contains("/categories") { return .json(categories) }
            if request.url.contains("/taxonomies") { return .json(taxonomies) }
            if request.url.contains("/items/\(hostileID)") { return .json(hostileItem) }
            return .json(#"{"title": "Not Found", "status": 404}"#, status: 404)
        }
        let configuration = try! DeliveryConfiguration(url: "http://127.0.0.1:8411", channelToken: "stub-token")
        return Connection(
            client: DeliveryClient(configuration: configuration, transport: transport), channelName: "stub")
    }()

    @MainActor
    static func run(_ text: String) async -> (code: Int32, output: String, errors: String) {
        let output = MemoryOutput(width: 120)
        let errors = MemoryOutput()
        let session = Session(registry: registry, connection: connection, output: output, errors: errors)
        let code = await ScriptRunner.run(text: text, fileName: "test.oceq", in: session, keepGoing: true)
        return (code, output.text, errors.text)
    }
}

@MainActor
@Suite("Asset commands on a stub channel")
struct StubChannelTests {
    @Test("server text is stripped of control characters in show, fields and field")
    func controlCharacters() async {
        let id = StubChannel.hostileID
        let result = await StubChannel.run("show \(id)\nfields \(id)\nfield \(id) body\nfield \(id) tags\n")
        #expect(result.code == 0, "\(result.errors)")
        let controls = result.output.unicodeScalars.filter { TerminalText.isControl($0) && $0 != "\n" }
        #expect(controls.isEmpty, "\(controls.map(\.value))")
        expectGolden(result.output, named: "stub-hostile.txt")
    }

    @Test("taxonomies and categories as a tree")
    func categories() async {
        let result = await StubChannel.run(
            "taxonomies\ncategories regions\ncategories REG\ncategories Nope\ncategories Region\n")
        #expect(result.code == 1)
        expectGolden(result.output + "--- errors\n" + result.errors, named: "stub-taxonomies.txt")
    }

    @Test("a path through a reference to an item the channel lacks says so")
    func danglingReference() async {
        let result = await StubChannel.run("field \(StubChannel.hostileID) ghost.avatar\n")
        #expect(result.code == 1)
        #expect(
            result.errors.contains(
                "stopped at 'avatar': 'ghost' refers to CORE99999999999999999999999999999999, which is not in this channel"
            ), "\(result.errors)")
    }
}
