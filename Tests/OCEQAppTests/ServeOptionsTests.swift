// `oceq serve`'s command line, now the executable's (OCEQApp): options, environment, mistakes.

import ChannelServer
import OCEQApp
import OCEQCore
import Testing

@Suite("oceq serve, the command line")
struct ServeOptionsTests {
    @Test("options parse, with suggestions for typos and an error for a missing export")
    func options() throws {
        let options = try ServeOptions.parse(["x.zip", "--port=0", "--token", "T0k3n-long", "--strict", "y"])
        #expect(options.paths == ["x.zip", "y"])
        #expect(options.port == 0 && options.token == "T0k3n-long" && options.strict)
        #expect(throws: UsageError("unknown option '--prot'; did you mean '--port'?")) {
            try ServeOptions.parse(["x", "--prot", "1"])
        }
        #expect(throws: UsageError("no export given: name an export folder or zip")) { try ServeOptions.parse([]) }
        #expect(throws: UsageError("--port must be a number from 0 to 65535, got '70000'")) {
            try ServeOptions.parse(["x", "--port", "70000"])
        }
        let secure = try ServeOptions.parse(["x"], environment: ["OCEQ_SERVE_BEARER": "b-s3cr3t-long"])
        #expect(secure.bearer == "b-s3cr3t-long")
    }

    @Test("the tokens are secrets: printing or dumping the options shows neither")
    func tokensAreSecrets() throws {
        let options = try ServeOptions.parse(["x", "--token", "T0k3n-long", "--bearer", "b-s3cr3t-long"])
        var dumped = ""
        dump(options, to: &dumped)
        for text in [String(describing: options), String(reflecting: options), dumped] {
            #expect(!text.contains("T0k3n-long") && !text.contains("b-s3cr3t-long"))
            #expect(text.contains("REDACTED"))
        }
        #expect(options.token?.revealedForRequest == "T0k3n-long")
    }

    @Test("the spec and seed also come from the environment, and a bad one stops the start")
    func environment() throws {
        let options = try ServeOptions.parse(
            ["x"], environment: ["OCEQ_SERVE_FAULTS": "503@0.5", "OCEQ_SERVE_FAULT_SEED": "9"])
        #expect(options.faults?.rules.first?.kind == .status(503))
        #expect(options.faultSeed == 9)
        #expect(
            throws: UsageError(
                "invalid fault spec at '418': unknown fault '418' (500, 502, 503, 504, 401, 403, 404, 429, reset, truncate, delay, stall, malformed)"
            )
        ) {
            try ServeOptions.parse(["x", "--faults", "418"])
        }
    }

    @Test("--name=value, -- and a repeated seed given as --fault-seed=N are all understood")
    func shapes() throws {
        let options = try ServeOptions.parse(
            ["--fault-seed=4", "--", "--odd-folder"], environment: ["OCEQ_SERVE_FAULT_SEED": "9"])
        #expect(options.paths == ["--odd-folder"])
        #expect(options.faultSeed == 4)
        #expect(throws: UsageError("--strict takes no value")) { try ServeOptions.parse(["x", "--strict=yes"]) }
        #expect(throws: UsageError("--port needs a value")) { try ServeOptions.parse(["x", "--port"]) }
    }

    @Test("a token or bearer that cannot be a secret is refused in one line, unless --insecure-token")
    func weakTokens() throws {
        #expect(throws: UsageError("--token is shorter than 8 characters; use a longer token, or add --insecure-token"))
        {
            try ServeOptions.parse(["x", "--token", "T"])
        }
        #expect(
            throws: UsageError("--bearer is shorter than 8 characters; use a longer token, or add --insecure-token")
        ) {
            try ServeOptions.parse(["x", "--token", "long-enough", "--bearer", "b"])
        }
        #expect(
            throws: UsageError("--bearer is shorter than 8 characters; use a longer token, or add --insecure-token")
        ) {
            try ServeOptions.parse(["x"], environment: ["OCEQ_SERVE_BEARER": "short"])
        }
        #expect(
            throws: UsageError(
                "--bearer contains whitespace or a control character; use a longer token, or add --insecure-token")
        ) {
            try ServeOptions.parse(["x", "--bearer", "has a space in it"])
        }
        #expect(throws: UsageError("--token must be a non-empty word")) {
            try ServeOptions.parse(["x", "--token", ""])
        }
        let insecure = try ServeOptions.parse(["x", "--token", "T", "--bearer", "b", "--insecure-token"])
        #expect(insecure.token == "T" && insecure.bearer == "b")
    }
}
