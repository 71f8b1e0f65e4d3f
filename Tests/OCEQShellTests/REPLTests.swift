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
        #expect(reader.prompts == ["OCEGettingStarted> ", "                (> ", "OCEGettingStarted> "])
        #expect(reader.history == ["count type in (OCEGettingStartedAuthor,\nOCEGettingStartedTopic)", "quit"])
        #expect(Int(output.text.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
    }

    @Test("the continuation prompt says what is open: a string, a parenthesis, a define")
    func continuationSaysWhatIsOpen() async {
        let (session, output, errors) = makeSession()
        let reader = FakeLineReader(lines: [
            "echo \"one", "two\"", "echo 'three", "four'", "define twice(x)", "  echo $x",
            "  count type in (OCEGettingStartedAuthor,", "  OCEGettingStartedTopic)", "end", "twice 5",
        ])
        _ = await REPL(reader: reader, session: session).run()
        #expect(errors.text.isEmpty, "\(errors.text)")
        let prompt = "OCEGettingStarted> "
        #expect(
            reader.prompts == [
                prompt, "                \"> ", prompt, "                '> ", prompt, "           define> ",
                "           define> ", "                (> ", "           define> ", prompt, prompt,
            ])
        #expect(output.text == "one\ntwo\nthree\nfour\n5\n11\n")
    }

    @Test("a prompt shorter than what is open is not padded")
    func shortPrompt() {
        let (session, _, _) = makeSession(connection: nil)
        let repl = REPL(reader: FakeLineReader(lines: []), session: session)
        #expect(repl.prompt == "oceq> ")
        #expect(repl.continuationPrompt(for: "define f()") == "define> ")
        #expect(repl.continuationPrompt(for: "echo (") == "   (> ")
    }

    @Test("comment lines typed just above define become its help; a blank line or a statement in between does not")
    func commentHelp() async {
        let (session, output, errors) = makeSession()
        let reader = FakeLineReader(lines: [
            "# Greets someone.", "# Says hello, then the name.", "define hi(name)", "  echo hello $name", "end",
            "# stray comment", "", "define bye()", "  echo bye", "end",
            "# another stray", "echo between", "define later()", "  echo later", "end",
            "help hi", "help bye", "help later",
        ])
        _ = await REPL(reader: reader, session: session).run()
        #expect(errors.text.isEmpty, "\(errors.text)")
        #expect(output.text.contains("Greets someone."), "\(output.text)")
        #expect(output.text.contains("Says hello, then the name."))
        #expect(!output.text.contains("stray"), "\(output.text)")
        let help = session.registry.descriptor(named: "hi")
        #expect(help?.abstract == "Greets someone.")
        #expect(session.registry.descriptor(named: "bye")?.abstract != "stray comment")
    }

    @Test("after connect the prompt names the new channel; a name from an export is cleaned of controls")
    func promptAfterConnect() async {
        let (session, output, errors) = makeSession(connection: offlineConnection)
        let reader = FakeLineReader(lines: ["connect Samples/OCEGettingStarted", "echo done"])
        _ = await REPL(reader: reader, session: session).run()
        #expect(errors.text.isEmpty, "\(errors.text)")
        #expect(output.text.contains("connected to OCEGettingStarted"))
        #expect(reader.prompts == ["offline> ", "OCEGettingStarted> ", "OCEGettingStarted> "])
        session.connection = Connection(client: offlineConnection.client, channelName: "ev\u{1B}]0;title\u{7}il")
        #expect(REPL(reader: FakeLineReader(lines: []), session: session).prompt == "ev]0;titleil> ")
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
