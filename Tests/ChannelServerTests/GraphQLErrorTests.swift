import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Issue 19: the specification's error answers (HTTP 200 with `errors[{message, locations}]`),
/// and the endpoint's HTTP rules: 400 for a body that is not a GraphQL request, the channel token
/// as argument, parameter or header, the bearer of a secure channel, the cache-buster forms.
@Suite("GraphQL errors and the endpoint's HTTP rules", .serialized)
struct GraphQLErrorTests {
    let channel: TestChannel

    init() throws {
        channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
    }

    @Test("an unknown field is named with its line and column")
    func unknownField() async throws {
        let answer = try await channel.graphQL("{\n  getItems {\n    items { id nmae }\n  }\n}")
        #expect(answer.status == 200)
        #expect(answer.data == nil)
        #expect(answer.messages == ["Cannot query field \"nmae\" on type \"item\". Did you mean \"name\"?"])
        #expect(answer.firstLocations == [[3, 16]])
    }

    @Test("a name written as OCM spells it, or a custom field asked on the item, is pointed at the schema's own")
    func suggestions() async throws {
        let article = "CORE034E9E5F88CD31495EB4166E81ECB6AD"
        // A content type's GraphQL name starts in lower case: the OCM spelling is named as such.
        let ocmName = try await channel.graphQL(
            "{ getItem(id: \"\(article)\") { ... on OCEGettingStartedArticle { name } } }")
        #expect(
            ocmName.messages == [
                "Unknown type \"OCEGettingStartedArticle\". Did you mean \"oCEGettingStartedArticle\"?"
            ])
        // Custom fields sit under `fields`.
        let onItem = try await channel.graphQL(
            "{ getItem(id: \"\(article)\") { ... on oCEGettingStartedArticle { topic { name } } } }")
        #expect(
            onItem.messages == [
                "Cannot query field \"topic\" on type \"oCEGettingStartedArticle\". Did you mean \"fields { topic }\"?"
            ])
        let fixed = try await channel.graphQL(
            "{ getItem(id: \"\(article)\") { ... on oCEGettingStartedArticle { fields { topic { name } } } } }")
        #expect(fixed.messages.isEmpty)
        // An argument a letter off; a word far from every name gets no guess.
        let argument = try await channel.graphQL("{ getItems(limt: 1) { totalResults } }")
        #expect(
            argument.messages.first?.hasPrefix(
                "Unknown argument \"limt\" on field \"Query.getItems\". Did you mean \"limit\"? Known arguments:")
                == true)
        let far = try await channel.graphQL("{ getItems { items { zzzzzz } } }")
        #expect(far.messages == ["Cannot query field \"zzzzzz\" on type \"item\"."])
    }

    @Test("a wrong argument type, an unknown argument and a fragment on a wrong type are errors with locations")
    func wrongArguments() async throws {
        let answer = try await channel.graphQL("{ getItems(limit: \"ten\") { totalResults } }")
        #expect(answer.messages.first?.contains("Argument \"limit\"") == true)
        #expect(answer.firstLocations == [[1, 12]])
        let unknown = try await channel.graphQL("{ getItem(ids: \"x\") { id } }")
        #expect(unknown.messages.first?.hasPrefix("Unknown argument \"ids\" on field \"Query.getItem\".") == true)
        #expect(unknown.firstLocations == [[1, 11]])
        let wrongType = try await channel.graphQL("{ getItems { totalResults ... on image { id } } }")
        #expect(wrongType.messages.first?.contains("can never be of type \"image\"") == true)
        #expect(wrongType.firstLocations == [[1, 27]])
        let unknownType = try await channel.graphQL("{ getItems { items { ... on nothing { id } } } }")
        #expect(unknownType.messages == ["Unknown type \"nothing\"."])
        #expect(unknownType.firstLocations == [[1, 22]])
        let conflict = try await channel.graphQL("{ a: getItems(limit: 1) { count } a: getItems(limit: 2) { count } }")
        #expect(conflict.messages.first?.hasPrefix("Fields \"a\" conflict") == true)
        #expect(conflict.firstLocations == [[1, 35]])
        let enumValue = try await channel.graphQL(
            "{ getItems(filter: {type: {op: IS, value: \"Image\"}}) { totalResults } }")
        #expect(enumValue.messages.first?.contains("does not exist in \"filterOperator\" enum") == true)
    }

    @Test("a missing required variable and an undefined one are errors at the definition and the use")
    func variables() async throws {
        let missing = try await channel.graphQL("query Page($slug: String!) {\n  getItem(slug: $slug) { id }\n}")
        #expect(missing.messages == ["Variable \"$slug\" of required type \"String!\" was not provided."])
        #expect(missing.firstLocations == [[1, 12]])
        let undefined = try await channel.graphQL("{ getItem(slug: $slug) { id } }")
        #expect(undefined.messages.first?.contains("Variable \"$slug\" is not defined") == true)
        let wrongValue = try await channel.graphQL(
            "query ($n: Int) { getItems(limit: $n) { totalResults } }", variables: ["n": "many"])
        #expect(wrongValue.messages.first?.hasPrefix("Variable \"$n\" got invalid value") == true)
    }

    @Test("a syntax error says what was expected and where")
    func syntaxError() async throws {
        let answer = try await channel.graphQL("{ getItems(limit: 5 { totalResults } }")
        #expect(answer.status == 200)
        #expect(answer.messages == ["Syntax Error: Expected Name, found \"{\"."])
        #expect(answer.firstLocations == [[1, 21]])
        let unterminated = try await channel.graphQL("{ getItem(slug: \"abc) { id } }")
        #expect(unterminated.messages == ["Syntax Error: Unterminated string."])
        let empty = try await channel.graphQL("   ")
        #expect(empty.messages.first?.hasPrefix("Syntax Error: Expected") == true)
    }

    @Test("a missing item is a null with an error at its path; operations are picked by name; @skip and @include")
    func executionErrors() async throws {
        let answer = try await channel.graphQL("{ a: getItem(id: \"NOPE\") { id } b: getItems(limit: 1) { count } }")
        #expect(answer.data?["a"] == .null)
        #expect(answer.data?["b"]?["count"] == 1)
        #expect(answer.errors.first?["path"] == ["a"])
        let two = "query A { getItems(limit: 1) { count } } query B { getItems(limit: 2) { count } }"
        await #expect(
            try channel.graphQL(two).messages == ["Must provide operation name if query contains multiple operations."])
        #expect(try await channel.graphQL(two, operationName: "B").data?["getItems"]?["count"] == 2)
        let directives = try await channel.graphQL(
            "query ($no: Boolean!) { getItems(limit: 1) { count @skip(if: true) totalResults @include(if: $no) hasMore } }",
            variables: ["no": false])
        #expect(directives.data?["getItems"]?.objectValue?.keys.sorted() == ["hasMore"])
    }

    @Test("a body that is not a GraphQL request is 400; GET is 405")
    func badBodies() async throws {
        for body in ["not json", "[1,2]", "{\"variables\": {}}", "{\"query\": \"{ a }\", \"variables\": 3}"] {
            let response = try await channel.post(Array(body.utf8))
            #expect(response.status == 400, "\(body)")
            let parsed = try JSON.parse(response.body)
            #expect(parsed["errors"]?[0]?["message"]?.stringValue?.hasPrefix("Bad GraphQL request") == true)
        }
        let get = try await RawHTTPClient.send(port: channel.port, target: TestChannel.graphQLPath)
        #expect(get.status == 405)
    }

    @Test("the token as argument, parameter or header; ?cb= and the SDK's /graphqlcb= path; a wrong token is 403")
    func tokens() async throws {
        let query = "{ getItems(limit: 1) { count } }"
        let header = try await channel.graphQL(
            query, target: TestChannel.graphQLPath, headers: ["channelToken": TestChannel.token])
        #expect(header.data?["getItems"]?["count"] == 1)
        let none = try await channel.graphQL(query, target: TestChannel.graphQLPath)
        #expect(none.data?["getItems"] == .null)
        #expect(none.messages.first?.hasPrefix("channelToken is required") == true)
        let wrongArgument = try await channel.graphQL(
            "{ getItems(channelToken: \"wrong\", limit: 1) { count } }", target: TestChannel.graphQLPath)
        #expect(wrongArgument.messages == ["The channelToken is not this channel's token."])
        let cacheBuster = try await channel.graphQL(
            query, target: TestChannel.graphQLPath + "?cb=12345&channelToken=" + TestChannel.token)
        #expect(cacheBuster.data?["getItems"]?["count"] == 1)
        let broken = try await channel.graphQL(
            query, target: TestChannel.graphQLPath + "cb=12345?channelToken=" + TestChannel.token)
        #expect(broken.data?["getItems"]?["count"] == 1)
        let wrong = try await channel.graphQL(query, target: TestChannel.graphQLPath + "?channelToken=wrong")
        #expect(wrong.status == 403)
        let introspection = try await channel.graphQL("{ __typename }", target: TestChannel.graphQLPath)
        #expect(introspection.data?["__typename"] == "Query")
    }

    @Test("a secure channel refuses GraphQL without its bearer")
    func bearer() async throws {
        let secure = try TestChannel(bearer: "b-graphql-1")
        let refused = try await secure.graphQL("{ getItems(limit: 1) { count } }")
        #expect(refused.status == 401)
        let allowed = try await secure.graphQL(
            "{ getItems(limit: 1) { count } }", headers: ["Authorization": "Bearer b-graphql-1"])
        #expect(allowed.data?["getItems"]?["count"] == 1)
    }
}
