import DeliveryKit
import OCEQCore
import Testing

/// `Endpoint.url` writes the URL as bytes in one buffer; it must say exactly what its parts, encoded
/// one by one (`encodedPath`, `queryItems`, `QueryItem.encoded`), say joined.
@Suite("Endpoint URLs written in one buffer")
struct EndpointURLTests {
    static let servers = ["http://127.0.0.1:8080", "https://Example.com", "http://[::1]:9"]
    static let endpoints = [
        Endpoint(path: ["items"]),
        Endpoint(
            path: ["assets", "CONT1", "Medium"],
            items: [QueryItem("format", "jpg"), QueryItem("type", "responsiveimage")]),
        Endpoint(
            version: .v1, path: ["a b", "ü/é", ".", "..", "...", "x%y?#"],
            leadingItems: [QueryItem("format", "webp"), QueryItem("q", "(name co \"a+b&c=d\")")],
            items: [QueryItem("zeta", "ünï"), QueryItem("alpha", "!$'()*,;:@/?"), QueryItem("channelToken", "mine")],
            channelToken: Secret("own+token")),
        Endpoint(path: [], items: [QueryItem("limit", "1")]),
    ]

    /// The URL as the parts encode it, and with every `channelToken` value shown as `REDACTED`.
    static func expected(_ endpoint: Endpoint, _ server: ServerAddress, _ token: Secret?) -> (String, String) {
        let items = endpoint.queryItems(defaultToken: token)
        let base = server.origin + endpoint.encodedPath
        guard !items.isEmpty else { return (base, base) }
        let redacted = items.map { $0.name == "channelToken" ? QueryItem($0.name, "REDACTED") : $0 }
        return (
            base + "?" + items.map(\.encoded).joined(separator: "&"),
            base + "?" + redacted.map(\.encoded).joined(separator: "&")
        )
    }

    @Test("every endpoint on every server, with and without a default token", arguments: servers)
    func sameAsParts(_ origin: String) throws {
        let server = try ServerAddress(origin)
        for endpoint in Self.endpoints {
            for token in [Secret("t0k&n"), nil] {
                let (url, redacted) = endpoint.url(on: server, defaultToken: token)
                let expected = Self.expected(endpoint, server, token)
                #expect(url == expected.0)
                #expect(redacted == expected.1)
            }
        }
    }

    @Test("dot segments are encoded whole and the token is never in the redacted URL")
    func dotsAndToken() throws {
        let endpoint = Endpoint(path: ["items", "..", "."], items: [QueryItem("limit", "1")])
        let (url, redacted) = endpoint.url(on: try ServerAddress("http://h"), defaultToken: Secret("s3cr3t"))
        #expect(url == "http://h/content/published/api/v1.1/items/%2E%2E/%2E?channelToken=s3cr3t&limit=1")
        #expect(redacted == "http://h/content/published/api/v1.1/items/%2E%2E/%2E?channelToken=REDACTED&limit=1")
    }
}
