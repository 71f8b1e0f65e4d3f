import Testing

@testable import OCEQShell

@MainActor
@Suite("The REPL loop, driven by a fake line reader", .serialized)
struct REPLTests {
    @Test("unfinished input continues under a continuation prompt and is one history entry")
    func continuation() async {
        let (session, output, errors) = makeSession()
        let reader = FakeLineReader(lines: [
            "count type in (OCEGettingStartedAuthor,", "OCEGettingStartedTopic)", "quit",
        ])
        let code = await REPL(reader: reader, session: session).run()
        #expect(code == 0)
        #expect(errors.text.isEmpty, "\(errors.text)")
        #expect(reader.prompts == ["OCEGettingStarted> ", "               ... ", "OCEGettingStarted> "])
        #expect(reader.history == ["count type in (OCEGettingStartedAuthor,\nOCEGettingStartedTopic)", "quit"])
        #expect(Int(output.text.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
    }

    @Test("Ctrl-C drops the pending input; Ctrl-D ends the loop")
    func interrupt() async {
        let (session, output, _) = makeSession()
        let reader = FakeLineReader([.line("echo (one"), .interrupted, .line("echo two"), .end, .line("echo never")])
        let code = await REPL(reader: reader, session: session).run()
        #expect(code == 0)
        #expect(output.text == "two\n")
    }

    @Test("an error is presented and the loop goes on")
    func errorsContinue() async {
        let (session, output, errors) = makeSession()
        let reader = FakeLineReader(lines: ["get @3", "lst type=X", "echo still here"])
        _ = await REPL(reader: reader, session: session).run()
        #expect(errors.text.contains("error:"))
        #expect(errors.text.contains("@3"))
        #expect(errors.text.contains("did you mean 'list'?"))
        #expect(output.text == "still here\n")
    }

    @Test("the banner names the channel and help")
    func banner() {
        let text = REPL.banner(channel: "OCEGettingStarted", items: 146, version: "0.1.0")
        #expect(text == "oceq 0.1.0 on OCEGettingStarted, 146 items. Type 'help' for commands, Ctrl-D to leave.\n")
    }
}

@MainActor
@Suite("REPL history")
struct REPLHistoryTests {
    @Test("input carrying a secret never reaches history")
    func secrets() {
        let (session, _, _) = makeSession(connection: offlineConnection)
        #expect(REPL.mayRemember("list type=X", session: session))
        #expect(!REPL.mayRemember("connect https://x abc", session: session))
        #expect(!REPL.mayRemember("echo x; connect https://x abc", session: session))
        #expect(!REPL.mayRemember("set token abc", session: session))
        #expect(!REPL.mayRemember("echo s3cr3t-token", session: session))
    }
}
