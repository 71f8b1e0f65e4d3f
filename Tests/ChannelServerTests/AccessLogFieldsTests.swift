// The access log builds its line from values (issue 16 point 8, issue 20 points 6 and 8): the
// `channelToken` value and whole path segments or values equal to a secret are REDACTED, ids that
// merely contain the token's text are not touched, and every field is escaped.

import ChannelServer
import Foundation
import Testing

@Suite("Access log: values redacted where the line is built, every field escaped")
struct AccessLogFieldsTests {
    func line(_ method: String, _ target: String, secrets: [String?] = [], client: String = "127.0.0.1") -> String {
        AccessLog(secrets: secrets) { _ in }.line(
            for: HTTPExchange(
                request: ServerRequest(method: method, target: target, clientAddress: client), status: 200,
                bytes: 5, milliseconds: 1))
    }

    @Test("with --token T, ids holding a T are logged as they are; the channelToken value is REDACTED")
    func shortTokenKeepsIds() {
        let target = "/content/published/api/v1.1/items/CORETEST0T?channelToken=T&q=type%20eq%20%22T%22&fields=TITLE"
        let logged = line("GET", target, secrets: ["T", nil])
        #expect(
            logged
                == "127.0.0.1 GET /content/published/api/v1.1/items/CORETEST0T?channelToken=REDACTED"
                + "&q=type%20eq%20%22T%22&fields=TITLE 200 5 1.00ms\n")
        #expect(!logged.contains("REDACTEDREDACTED"))
    }

    @Test("a path segment or a query value equal to a secret is REDACTED, wherever it is")
    func wholeValues() {
        let logged = line(
            "GET", "/content/published/api/v1.1/items/s3cr3t-t0ken?expand=s3cr3t%2Dt0ken&CHANNELTOKEN=x",
            secrets: ["s3cr3t-t0ken"])
        #expect(logged.contains("/items/REDACTED?expand=REDACTED&CHANNELTOKEN=REDACTED "), "\(logged)")
    }

    @Test("a hostile method, target or address cannot drive the terminal or forge a line")
    func escaped() {
        let osc52 = "\u{1B}]52;c;ZXZpbA==\u{07}"
        let logged = line(
            "GET\(osc52)\r127.0.0.1 GET /forged 200 0 0.00ms\n\u{9B}2J\u{202E}",
            "/items/a\u{1B}[31m?x=\u{85}", client: "1.2.3.4\u{1B}]0;title\u{07}")
        #expect(logged.filter { $0.isNewline }.count == 1 && logged.hasSuffix("200 5 1.00ms\n"), "\(logged)")
        #expect(!logged.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(logged)")
        #expect(!logged.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(logged.hasPrefix("1.2.3.4\\x1b]0;title\\x07 GET\\x1b]52;c;ZXZpbA==\\x07\\x0d127.0.0.1\\x20GET"))
        #expect(logged.contains("\\x0a\\x9b2J\\u{202e} /items/a\\x1b[31m?x=\\x85 200"), "\(logged)")
        // Exactly six space-separated fields: nothing a client sends adds one.
        #expect(logged.dropLast().split(separator: " ").count == 6)
    }

    @Test("escape: controls, C1, DEL, backslash and bidi controls become escapes; prose keeps its spaces")
    func escapeRule() {
        #expect(AccessLog.escape("a b\\c\u{7F}\u{80}\u{1B}") == "a\\x20b\\x5cc\\x7f\\x80\\x1b")
        #expect(AccessLog.escape("skipped a b\u{1B}[2J\r", keepingSpaces: true) == "skipped a b\\x1b[2J\\x0d")
        #expect(AccessLog.escape("name\u{202E}gpj.exe") == "name\\u{202e}gpj.exe")
    }
}
