import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Issue 19 point 4: a standard client builds the schema from oceq's introspection answer —
/// Python's graphql-core runs its own introspection query, `build_client_schema`, and validates
/// queries (the People-page shape adapted to the sample's blog types among them) against it.
@Suite("GraphQL introspection satisfies graphql-core", .serialized)
struct GraphQLIntrospectionTests {
    /// Runs graphql-core against the endpoint; each query's name and validity, one a line.
    static let script = """
        import json, sys, urllib.request
        from graphql import get_introspection_query, build_client_schema, parse, validate, print_schema
        url, queries = sys.argv[1], json.load(open(sys.argv[2]))
        body = json.dumps({"query": get_introspection_query(descriptions=True)}).encode()
        request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
        answer = json.load(urllib.request.urlopen(request))
        schema = build_client_schema(answer["data"])
        print("types", len(schema.type_map))
        for name, query in queries.items():
            errors = validate(schema, parse(query))
            print(name, "valid" if not errors else "invalid " + "; ".join(e.message for e in errors))
        """

    static var graphQLCoreMissing: Bool {
        get async {
            guard let result = try? await ChildProcess.run("/usr/bin/env", ["python3", "-c", "import graphql"]) else {
                return true
            }
            return result.code != 0
        }
    }

    @Test("graphql-core builds a client schema and validates the sample's queries, and rejects a wrong one")
    func graphQLCore() async throws {
        if await Self.graphQLCoreMissing {
            print("skipped: python3 cannot import graphql (pip install graphql-core)")
            return
        }
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let folder = try TemporaryFolder("oceq-graphql-core")
        defer { folder.remove() }
        let queries: JSON = [
            "people": .string(
                """
                query ($slug: String!, $channelToken: String!) {
                  getOCEGettingStartedHomePage(slug: $slug, channelToken: $channelToken) {
                    id slug name
                    fields {
                      companyName
                      companyLogo { ...sectionImages }
                      topics { id name fields { thumbnail { ...sectionImages } } }
                    }
                  }
                }
                """ + GraphQLQueryTests.imageFragment),
            "items":
                "{ getItems(channelToken: \"t\", filter: {type: {op: EQUALS, value: \"Image\"}}) { totalResults items { id name type } } }",
            "getItem":
                "query ($itemId: ID, $channelToken: String) { getItem(id: $itemId, channelToken: $channelToken) { id slug ... on oCEGettingStartedArticle { fields { author { name } } } } }",
            "sorted":
                "{ getItems(sort: [{name: DESC}], query: {default: \"coffee\"}, limit: 5) { items { __typename } } }",
            "wrong": "{ getItems { items { nope } } }",
        ]
        try Data(JSONWriter().bytes(queries)).write(to: URL(fileURLWithPath: folder.path + "/queries.json"))
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: folder.path + "/check.py"))
        let child = try ChildProcess(
            "/usr/bin/env",
            [
                "python3", folder.path + "/check.py",
                "http://127.0.0.1:\(channel.port)\(TestChannel.graphQLPath)?channelToken=\(TestChannel.token)",
                folder.path + "/queries.json",
            ], stdin: .null, stdout: .pipe, stderr: .stdout)
        let finished = await child.finish()
        let output = finished.stdoutText
        #expect(finished.code == 0, "\(output)")
        let lines = Set(output.split(separator: "\n").map(String.init))
        for name in ["people", "items", "getItem", "sorted"] {
            #expect(lines.contains("\(name) valid"), "\(output)")
        }
        #expect(lines.contains { $0.hasPrefix("wrong invalid Cannot query field 'nope'") }, "\(output)")
    }

    @Test("__type describes a generated type: its fields, the item interface, and the naming of the 2021 export")
    func typeIntrospection() async throws {
        let channel = try TestChannel()
        let answer = try await channel.graphQL(
            """
            { __type(name: "starterBlogPostFields") { kind name fields { name type { kind name ofType { name } } } }
              item: __type(name: "item") { kind possibleTypes { name } }
              missing: __type(name: "Starter-Blog-Post") { name } }
            """)
        #expect(answer.errors.isEmpty, "\(answer.messages)")
        let type = answer.data?["__type"]
        #expect(type?["kind"] == "OBJECT")
        let names = type?["fields"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("starterBlogPostTitle"))
        #expect(names.contains("starterBlogPostDownloadMedia"))
        let media = type?["fields"]?.arrayValue?.first { $0["name"] == "starterBlogPostDownloadMedia" }
        #expect(media?["type"]?["kind"] == "LIST")
        #expect(media?["type"]?["ofType"]?["name"] == "starterBlogImage")
        let possible = answer.data?["item"]?["possibleTypes"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(possible?.sorted() == ["image", "starterBlogAuthor", "starterBlogImage", "starterBlogPost"])
        #expect(answer.data?["missing"] == .null)
    }
}
