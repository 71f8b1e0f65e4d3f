import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// Issue 19: DeliveryKit's GraphQL request over the libcurl transport (a real POST with a body)
/// against the sample channel, answered as the REST read of the same item.
@Suite("End to end: GraphQL through the client")
struct GraphQLClientTests {
    @Test("a GraphQL POST through libcurl answers the item GET /items/.by.slug answers")
    func post() async throws {
        let server = try SampleServer()
        let client = try server.client()
        let rest = try await client.fetch(DeliveryAPI.readAsset(slug: "brewing-at-home"))
        let answer = try await client.graphQL(
            GraphQLQuery(
                query: "query ($slug: String!) { getItem(slug: $slug) { id name } }",
                variables: ["slug": "brewing-at-home"]
            ))
        #expect(answer["errors"] == nil)
        #expect(answer["data"]?["getItem"]?["id"]?.stringValue == rest.id)
        #expect(answer["data"]?["getItem"]?["name"]?.stringValue == rest.name)
    }
}
