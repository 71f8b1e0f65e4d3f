import Foundation
import OCEQLanguage
import Testing

@testable import OCEQShell

/// Issue 19 point 7: `gql` sends a GraphQL query to the connected channel (here the sample served
/// in-process), prints `data` through the renderers, shows errors at the query's line and column,
/// and `explain gql` shows the POST with the token redacted.
@MainActor
@Suite("gql")
struct GraphQLCommandTests {
    @Test("gql prints data through the renderers; --var fills variables and $channelToken comes from the session")
    func query() async {
        let result = await runScript(
            """
            gql { getItems(limit: 2, filter: {type: {value: "OCEGettingStartedTopic"}}) { totalResults items { name } } }
            gql --var slug=brewing-at-home query ($slug: String!, $channelToken: String!) { getItem(slug: $slug, channelToken: $channelToken) { name } }
            """)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("getItems.totalResults"))
        #expect(result.output.contains("getItems.items.1.name"))
        #expect(result.output.contains("Brewing at Home"))
        #expect(!result.output.contains("935a30048d49b8479c9bc1577e392eba"))
    }

    @Test("a GraphQL error is shown with a caret under the query text, exit code 1")
    func errorCaret() async {
        let statement = "gql { getItems { items { nmae } } }"
        let result = await runScript(statement)
        #expect(result.code == 1)
        #expect(result.errors.contains("Cannot query field \"nmae\" on type \"item\"."))
        let lines = result.errors.split(separator: "\n").map(String.init)
        let echoed = lines.first { $0.contains(statement) }
        let caret = lines.first { $0.hasSuffix("^") && !$0.contains("nmae") }
        if let echoed, let caret {
            let column = echoed.distance(from: echoed.startIndex, to: echoed.range(of: "nmae")!.lowerBound)
            #expect(caret.count - 1 == column, "\(result.errors)")
        } else {
            Issue.record("no caret in \(result.errors)")
        }
    }

    @Test("gql FILE.graphql reads the file; its errors are FILE:LINE:COLUMN")
    func file() async throws {
        let folder = NSTemporaryDirectory() + "oceq-gql-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# topics\n{ getItems(filter: {type: {value: \"OCEGettingStartedTopic\"}}) {\n  totalResults\n} }\n"
            .write(toFile: folder + "/good.graphql", atomically: false, encoding: .utf8)
        try "{\n  getItems {\n    bogus\n  }\n}\n".write(
            toFile: folder + "/bad.graphql", atomically: false, encoding: .utf8)
        let good = await runScript("gql \(folder)/good.graphql")
        #expect(good.code == 0, "\(good.errors)")
        #expect(good.output.contains("totalResults"))
        let bad = await runScript("gql \(folder)/bad.graphql")
        #expect(bad.code == 1)
        #expect(bad.errors.contains("bad.graphql:3:5: Cannot query field \"bogus\" on type \"itemCollection\"."))
        let missing = await runScript("gql \(folder)/none.graphql")
        #expect(missing.code == 1)
        #expect(missing.errors.contains("cannot read the query file"))
    }

    @Test("explain gql shows the POST, its URL and curl line, the token redacted everywhere")
    func explain() async {
        let result = await runScript(
            "explain gql --var slug=x query ($slug: String!, $channelToken: String!) { getItem(slug: $slug, channelToken: $channelToken) { id } }",
            connection: offlineConnection)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("POST /graphql\n"))
        #expect(
            result.output.contains(
                "url   http://127.0.0.1:8411/content/published/api/v1.1/graphql?channelToken=REDACTED"))
        #expect(result.output.contains("curl  curl -sS -X POST '"))
        #expect(result.output.contains("--data-raw '{\"query\":"))
        #expect(result.output.contains("\"channelToken\":\"REDACTED\""))
        #expect(!result.output.contains("s3cr3t-token"))
    }
}
