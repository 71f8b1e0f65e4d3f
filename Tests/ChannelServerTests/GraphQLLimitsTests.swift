import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Issue 19 point 6: depth, fields, aliases, response size and time are bounded, and each error
/// names its limit. Limits are set low on a router built over the sample channel.
@Suite("GraphQL limits against hostile queries", .serialized)
struct GraphQLLimitsTests {
    /// The sample channel, its index in the test process's shared temporary folder (removed at exit).
    static let service: ChannelService = {
        var options = ServeOptions()
        options.paths = [SampleChannelTests.sampleFolder]
        options.token = Secret(TestChannel.token)
        options.cacheDirectory = TestTemporary.shared("oceq-graphql-limits")
        return try! ChannelService.load(options)
    }()

    /// The answer of a router with these limits.
    static func run(_ query: String, _ limits: GraphQLLimits) throws -> JSON {
        var configuration = ServerConfiguration(channelToken: TestChannel.token)
        configuration.graphQL = limits
        let router = DeliveryRouter(content: service.content, index: service.index, configuration: configuration)
        var request = ServerRequest(
            method: "POST", target: TestChannel.graphQLPath + "?channelToken=" + TestChannel.token,
            headers: ["content-type": "application/json"])
        request.body = JSONWriter().bytes(["query": .string(query)])
        let response = router.handle(request)
        #expect(response.status == 200)
        guard case .bytes(let bytes) = response.body else { return .null }
        return try JSON.parse(bytes)
    }

    static func message(_ answer: JSON) -> String { answer["errors"]?[0]?["message"]?.stringValue ?? "" }

    @Test("a query nested deeper than maximumDepth is refused, through fragments too")
    func depth() throws {
        let deep = "{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }"
        let answer = try Self.run(deep, GraphQLLimits(maximumDepth: 6))
        #expect(Self.message(answer).contains("limit maximumDepth"))
        #expect(answer["data"] == nil)
        let viaFragment = try Self.run(
            "{ __schema { ...t } } fragment t on __Schema { types { fields { type { ofType { ofType { ofType { name } } } } } } }",
            GraphQLLimits(maximumDepth: 6))
        #expect(Self.message(viaFragment).contains("limit maximumDepth"))
        #expect(try Self.run(deep, GraphQLLimits(maximumDepth: 9))["errors"] == nil)
    }

    @Test("fragments that multiply hit maximumFields; too many aliases hit maximumAliases")
    func fieldsAndAliases() throws {
        var document = "{ __schema { types { ...f0 } } }\nfragment f0 on __Type { name }\n"
        for level in 1...12 {
            document += "fragment f\(level) on __Type { ofType { ...f\(level - 1) ...f\(level - 1) } }\n"
        }
        document = document.replacingOccurrences(of: "...f0 } } }", with: "...f12 } } }")
        let answer = try Self.run(document, GraphQLLimits(maximumDepth: 100))
        #expect(Self.message(answer).contains("limit maximumFields"))
        let aliases = "{ " + (1...20).map { "a\($0): __typename" }.joined(separator: " ") + " }"
        #expect(Self.message(try Self.run(aliases, GraphQLLimits(maximumAliases: 10))).contains("limit maximumAliases"))
        #expect(try Self.run(aliases, GraphQLLimits(maximumAliases: 20))["data"]?["a20"] == "Query")
    }

    @Test("an answer larger than maximumResponseBytes, or a query past timeLimit, is stopped with data null")
    func sizeAndTime() throws {
        let big =
            "{ getItems(limit: 200) { items { id name description ... on image { fields { renditions { file { url } } } } } } }"
        let answer = try Self.run(big, GraphQLLimits(maximumResponseBytes: 10_000))
        #expect(Self.message(answer).contains("limit maximumResponseBytes"))
        #expect(answer["data"] == .null)
        #expect(try Self.run(big, GraphQLLimits())["data"]?["getItems"]?["items"]?.arrayValue?.count ?? 0 > 100)
        let timed = try Self.run("{ getItems(limit: 1) { count } }", GraphQLLimits(timeLimit: 0))
        #expect(Self.message(timed).contains("limit timeLimit"))
    }

    @Test("a body larger than the server reads is 413, and the server goes on answering")
    func largeBody() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: HTTPServer.maximumBodyLength + 10)
        let response = try await channel.post(huge)
        #expect(response.status == 413)
        await #expect(try channel.graphQL("{ __typename }").data?["__typename"] == "Query")
    }
}
