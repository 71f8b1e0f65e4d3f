// Server addresses are parsed by URLComponents; the checks around it, and errors that never show a
// secret written into the address.

import DeliveryKit
import Testing

@Suite("Server addresses")
struct ServerAddressTests {
    @Test(
        "each refusal says why",
        arguments: [
            ("h", "expected http://host or https://host"),
            ("ftp://h", "the scheme must be http or https"),
            ("https://h/content", "expected only scheme, host and port (the API path is added by oceq)"),
            ("https://h?x=1", "a query or fragment is not allowed"),
            ("https://u:p@h", "credentials in the URL are not allowed"),
            ("http://h:0", "the port must be between 1 and 65535"),
            ("http://h:70000", "the port must be between 1 and 65535"),
            ("http://", "missing or invalid host"),
            ("http://h:x", "not an address of the form http[s]://host[:port]"),
        ])
    func reasons(text: String, reason: String) {
        do {
            _ = try ServerAddress(text)
            Issue.record("\(text) was accepted")
        } catch {
            guard case .invalidServerAddress(_, let given) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(given == reason)
        }
    }

    @Test("a token written into the address is never echoed")
    func secrets() {
        for text in [
            "https://user:s3cret@host", "https://host/?channelToken=s3cret", "https://host#s3cret",
            "https://user:s3cret@host:x", "http://s3cret@[::1",
        ] {
            do {
                _ = try ServerAddress(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(!error.description.contains("s3cret"), "\(error)")
                #expect(error.description.contains("REDACTED"), "\(error)")
            }
        }
    }

    @Test("IPv6 literals keep their brackets and names are lower-cased")
    func hosts() throws {
        #expect(try ServerAddress("http://[::1]:9000/").origin == "http://[::1]:9000")
        #expect(try ServerAddress("HTTPS://Example.COM").origin == "https://example.com")
        #expect(try ServerAddress("http://h:8080").port == 8080)
    }
}
