// A real OCM answers a search naming a type the channel does not have with 400 ("Type with name X
// is not found", ../shared/fixtures/ocm-recorded ErrorTests.testSearchNotFound); `oceq serve` of an
// old export may answer an empty page instead. On a channel without the blog's types, the blog
// commands say so in one line either way, instead of showing the 400.

import DeliveryKit
import DeliveryTransport
import OCEQShell
import OCEQTestSupport
import Testing

@MainActor
@Suite("The blog commands on an OCM channel without the blog's types")
struct UnknownTypeTests {
    /// OCM's recorded answer to `q=type eq "unknown"`.
    nonisolated static let refusal =
        #"{"detail":"Type with name OCEGettingStartedHomePage is not found","title":"Invalid Query","status":400,"#
        + #""type":"http://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.5.1"}"#

    /// A channel that refuses every type search as OCM does and has no items otherwise.
    static func shell() -> Shell {
        let transport = StubTransport { request in
            if request.url.contains("q=") { return .json(refusal, status: 400) }
            return .json(#"{"items": [], "hasMore": false, "count": 0, "limit": 1, "offset": 0, "totalResults": 0}"#)
        }
        var configuration = try! DeliveryConfiguration(url: "http://127.0.0.1:8412", channelToken: "stub-token")
        configuration.retry = RetryPolicy(maxAttempts: 1)
        let connection = Connection(
            client: DeliveryClient(configuration: configuration, transport: transport), channelName: "stub")
        return Shell(connection: connection)
    }

    @Test(
        "home, topics, articles, author and read say the channel has no blog",
        arguments: [
            "home", "topics", "articles Recipes", "author", "author Hana", "read \"The Cortado Guide\"",
        ])
    func noBlog(_ statement: String) async {
        let result = await Self.shell().run(statement)
        #expect(result.code == 1)
        #expect(result.errors.contains("this channel has no blog"), "\(result.errors)")
        #expect(!result.errors.contains("HTTP 400"), "\(result.errors)")
    }
}
