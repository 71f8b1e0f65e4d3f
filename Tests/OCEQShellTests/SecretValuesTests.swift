// Secrets are values (issue 20, point 6): the tokens are hidden where URLs, headers and links are
// built or arrive, and content that holds the token's text is printed as it is.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQShell
import Testing

@Suite("Secrets as values: channel content holding the token's text comes through untouched")
@MainActor
struct SecretValuesTests {
    /// One item whose content holds `test` and `e`, with a link the server built with the token.
    nonisolated static func item(token: String) -> String {
        """
        {"id":"CORE1","type":"Article","typeCategory":"ContentType","name":"tested name",
         "description":"tested: the description of a test",
         "fields":{"test_note":"test-driven, tested"},
         "links":[{"href":"http://127.0.0.1:9/content/published/api/v1.1/items/CORE1?channelToken=\(token)",
                   "rel":"self","method":"GET","mediaType":"application/json"}]}
        """
    }

    /// A connection with `token` to a stub server answering every request with `item`.
    func connection(token: String) throws -> Connection {
        let body = Self.item(token: token)
        let transport = StubTransport { _ in .json(body) }
        let configuration = try DeliveryConfiguration(url: "http://127.0.0.1:9", channelToken: token)
        return Connection(
            client: DeliveryClient(configuration: configuration, transport: transport), channelName: "stub")
    }

    @Test("with --token test or e, 'tested' and 'description' print as they are; the link's token is hidden")
    func contentUntouched() async throws {
        for token in ["test", "e"] {
            let result = await runScript("set format json\nget CORE1\n", connection: try connection(token: token))
            #expect(result.code == 0, "\(result.errors)")
            #expect(result.output.contains("tested: the description of a test"), "\(result.output)")
            #expect(result.output.contains("test-driven, tested"), "\(result.output)")
            #expect(result.output.contains("\"description\""), "\(result.output)")
            #expect(result.output.contains("channelToken=REDACTED"), "\(result.output)")
            #expect(!result.output.contains("channelToken=\(token)\""), "\(result.output)")
            #expect(!result.output.contains("REDACTEDed") && !result.output.contains("dREDACTED"), "\(result.output)")
        }
    }

    @Test("a Secret prints, interpolates, dumps and reflects as REDACTED; the raw value only by name")
    nonisolated func secretType() {
        let secret = Secret("s3cr3t-token-value")
        #expect("\(secret)" == "REDACTED")
        #expect(String(describing: secret) == "REDACTED")
        #expect(!String(reflecting: secret).contains("s3cr3t"))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("s3cr3t"), "\(dumped)")
        #expect(Mirror(reflecting: secret).children.isEmpty)
        #expect(secret.revealedForRequest == "s3cr3t-token-value")
        #expect(secret.weakness == nil)
        #expect(Secret("").weakness != nil && Secret("short").weakness != nil && Secret("a b c d e f").weakness != nil)
        let configuration = try? DeliveryConfiguration(
            url: "http://127.0.0.1:9", channelToken: "s3cr3t-token-value", bearerToken: "b3arer-value")
        var shown = ""
        dump(configuration, to: &shown)
        #expect(!shown.contains("s3cr3t") && !shown.contains("b3arer"), "\(shown)")
    }

    @Test("the REPL still hides a typed token in an error's echoed line")
    func messagesStillRedacted() async throws {
        let result = await runScript("get \"s3cr3t-token\" (\n", connection: offlineConnection)
        #expect(result.code == 2, "\(result.errors)")
        #expect(!result.errors.contains("s3cr3t-token"), "\(result.errors)")
    }
}
