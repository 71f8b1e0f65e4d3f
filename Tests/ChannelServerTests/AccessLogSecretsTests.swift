import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

/// The access log hides the server's own secrets wherever a client puts them, not only in the
/// `channelToken` parameter (found by the secrets audit: `get "<token>"` logged the token in a path).
@Suite("Access log: the server's secrets never reach its log")
struct AccessLogSecretsTests {
    @Test("a token or bearer in the path, raw or percent-encoded, is logged as REDACTED")
    func secretsInThePath() {
        let lines = Locked<[String]>([])
        let log = AccessLog(secrets: ["tok+AUDIT/5e8b2f", "bear-AUDIT-77c1d9", nil]) { line in
            lines.withLock { $0.append(line) }
        }
        for target in [
            "/content/published/api/v1.1/items/tok+AUDIT%2F5e8b2f?channelToken=tok%2BAUDIT%2F5e8b2f",
            "/content/published/api/v1.1/items/bear-AUDIT-77c1d9?expand=all",
        ] {
            log.record(
                HTTPExchange(
                    request: ServerRequest(method: "GET", target: target, clientAddress: "127.0.0.1"), status: 404,
                    bytes: 10, milliseconds: 1))
        }
        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(
            written[0].hasPrefix("127.0.0.1 GET /content/published/api/v1.1/items/REDACTED?channelToken=REDACTED 404"))
        #expect(written[1].contains("/items/REDACTED?expand=all"))
        #expect(!written.joined().contains("AUDIT"))
    }
}
