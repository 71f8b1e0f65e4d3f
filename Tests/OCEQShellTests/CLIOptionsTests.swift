import Testing

@testable import OCEQShell

@MainActor
@Suite("Command-line options")
struct CLIOptionsTests {
    @Test("run FILE ARGS, FILE ARGS, and arguments after the file belong to the script")
    func files() throws {
        let run = try CLIOptions.parse(["run", "a.oceq", "x", "--json"])
        #expect(run.file == "a.oceq")
        #expect(run.arguments == ["x", "--json"])
        #expect(run.format == nil)
        let bare = try CLIOptions.parse(["--json", "--keep-going", "a.oceq", "y"])
        #expect(bare.file == "a.oceq")
        #expect(bare.arguments == ["y"])
        #expect(bare.format == .json)
        #expect(bare.keepGoing)
    }

    @Test("-c is repeatable and positional words become arguments")
    func commands() throws {
        let options = try CLIOptions.parse(["-c", "count", "--command=list", "--format", "csv", "one"])
        #expect(options.commands == ["count", "list"])
        #expect(options.arguments == ["one"])
        #expect(options.format == .csv)
        #expect(options.file == nil)
    }

    @Test("repl alone is the REPL, not a script named repl")
    func repl() throws {
        #expect(try CLIOptions.parse(["repl"]).file == nil)
        #expect(try CLIOptions.parse(["--json", "repl"]).file == nil)
    }

    @Test("connection flags")
    func connection() throws {
        let options = try CLIOptions.parse([
            "--credentials", "c.json", "--url=https://x", "--token", "t", "--bearer", "b",
        ])
        #expect(
            options.overrides
                == Credentials.Overrides(credentialsFile: "c.json", url: "https://x", token: "t", bearer: "b"))
    }

    @Test("mistakes are usage errors", arguments: [["--fromat", "json"], ["--format", "yaml"], ["-c"], ["run"]])
    func mistakes(arguments: [String]) {
        #expect(throws: (any Error).self) { _ = try CLIOptions.parse(arguments) }
    }
}

@MainActor
@Suite("Colour")
struct ColorModeTests {
    @Test("auto colours a terminal unless NO_COLOR or TERM=dumb; always and never say what they mean")
    func modes() throws {
        #expect(CLIOptions.ColorMode.auto.enabled(isTerminal: true, environment: [:]))
        #expect(!CLIOptions.ColorMode.auto.enabled(isTerminal: false, environment: [:]))
        #expect(!CLIOptions.ColorMode.auto.enabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!CLIOptions.ColorMode.auto.enabled(isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(CLIOptions.ColorMode.always.enabled(isTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!CLIOptions.ColorMode.never.enabled(isTerminal: true, environment: [:]))
        #expect(try CLIOptions.parse(["--color=never"]).color == .never)
    }

    @Test("with colour on, errors carry ANSI codes; with it off, none")
    func coloured() async {
        let (session, _, errors) = makeSession(connection: nil)
        session.settings.color = true
        _ = await ScriptRunner.run(text: "list type==X", fileName: "c.oceq", in: session)
        #expect(errors.text.contains("\u{1B}[1;31merror:"))
        let plain = await runScript("list type==X", connection: nil)
        #expect(!plain.errors.contains("\u{1B}"))
    }
}
