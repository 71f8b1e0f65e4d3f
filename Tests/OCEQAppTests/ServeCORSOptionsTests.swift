// `oceq serve --cors`: repeatable origins, `*` only on a channel without a bearer.

import ChannelServer
import OCEQApp
import OCEQCore
import Testing

@Suite("oceq serve --cors")
struct ServeCORSOptionsTests {
    @Test("--cors is off by default, repeatable, and drops a trailing slash")
    func origins() throws {
        #expect(try ServeOptions.parse(["x"]).corsOrigins.isEmpty)
        let options = try ServeOptions.parse(["x", "--cors", "https://a.example/", "--cors=http://localhost:3000"])
        #expect(options.corsOrigins == ["https://a.example", "http://localhost:3000"])
        #expect(try ServeOptions.parse(["x", "--cors", "*"]).corsOrigins == ["*"])
    }

    @Test("--cors '*' with a bearer, or a value that is not an origin, is a usage error")
    func refused() throws {
        #expect(throws: UsageError.self) { try ServeOptions.parse(["x", "--cors", "*", "--bearer", "bearer-token-b"]) }
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["x", "--cors", "*"], environment: ["OCEQ_SERVE_BEARER": "bearer-token-b"])
        }
        #expect(throws: UsageError.self) { try ServeOptions.parse(["x", "--cors", "app.example.com"]) }
        #expect(throws: UsageError.self) { try ServeOptions.parse(["x", "--cors", "https://a.example/path"]) }
        let listed = try ServeOptions.parse(["x", "--cors", "https://a.example", "--bearer", "bearer-token-b"])
        #expect(listed.corsOrigins == ["https://a.example"] && listed.bearer == "bearer-token-b")
    }
}
