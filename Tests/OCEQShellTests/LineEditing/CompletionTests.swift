import Testing

@testable import OCEQShell

@Suite("Tab completion planning")
struct CompletionTests {
    @Test("the word before the cursor stops at a delimiter")
    func word() {
        #expect(CompletionAction.word(before: "count type=OCEG") == "OCEG")
        #expect(CompletionAction.word(before: "sel") == "sel")
        #expect(CompletionAction.word(before: "count ") == "")
        #expect(CompletionAction.word(before: "run ./scripts/da") == "./scripts/da")
        #expect(CompletionAction.word(before: "where (fields.ti") == "fields.ti")
        #expect(CompletionAction.word(before: "") == "")
    }

    @Test("one candidate replaces the word and adds a space, except after / = .")
    func single() {
        #expect(
            CompletionAction.plan(beforeCursor: "count type=OCEG", candidates: ["OCEGettingStartedArticle"])
                == .replace(deleting: 4, text: "OCEGettingStartedArticle "))
        #expect(
            CompletionAction.plan(beforeCursor: "count ty", candidates: ["type="])
                == .replace(deleting: 2, text: "type="))
        #expect(
            CompletionAction.plan(beforeCursor: "run ./scr", candidates: ["./scripts/"])
                == .replace(deleting: 5, text: "./scripts/"))
        // Case may differ: the whole word is replaced.
        #expect(
            CompletionAction.plan(beforeCursor: "SEL", candidates: ["select"]) == .replace(deleting: 3, text: "select ")
        )
        // Deleting counts Unicode scalars, as libedit does.
        #expect(
            CompletionAction.plan(beforeCursor: "title=é", candidates: ["école"])
                == .replace(deleting: 1, text: "école "))
        #expect(
            CompletionAction.plan(beforeCursor: "x ", candidates: ["count", "count"])
                == .replace(deleting: 0, text: "count "))
    }

    @Test("several candidates insert their common prefix, or are listed when it adds nothing")
    func several() {
        #expect(
            CompletionAction.plan(
                beforeCursor: "O", candidates: ["OCEGettingStartedArticle", "OCEGettingStartedHomePage"])
                == .replace(deleting: 1, text: "OCEGettingStarted"))
        #expect(
            CompletionAction.plan(beforeCursor: "se", candidates: ["select", "search"]) == .list(["select", "search"]))
        #expect(CompletionAction.plan(beforeCursor: "", candidates: ["a", "b"]) == .list(["a", "b"]))
    }

    @Test("no candidate beeps")
    func none() {
        #expect(CompletionAction.plan(beforeCursor: "zz", candidates: []) == .beep)
        #expect(CompletionAction.plan(beforeCursor: "zz", candidates: [""]) == .beep)
    }

    @Test("common prefixes are whole characters")
    func commonPrefix() {
        #expect(CompletionAction.commonPrefix(["abc", "abd", "ab"]) == "ab")
        #expect(CompletionAction.commonPrefix(["x"]) == "x")
        #expect(CompletionAction.commonPrefix([]) == "")
        #expect(CompletionAction.commonPrefix(["e\u{301}a", "e\u{301}b"]) == "e\u{301}")
        #expect(CompletionAction.commonPrefix(["e\u{301}", "e"]) == "")
    }

    @Test("listings are laid out in columns, down then across")
    func columns() {
        #expect(CompletionAction.columns(["a", "bb", "c", "d"], width: 8) == "a   c\nbb  d\n")
        #expect(CompletionAction.columns(["alpha", "beta"], width: 3) == "alpha\nbeta\n")
        #expect(CompletionAction.columns([], width: 80) == "")
    }
}

@Suite("Prompt fencing for EL_PROMPT_ESC")
struct PromptFenceTests {
    @Test("a plain prompt is unchanged")
    func plain() {
        #expect(EditLineReader.fencePrompt("oceq> ") == "oceq> ")
        #expect(EditLineReader.fencePrompt("\u{1}\u{1B}[1m\u{1}oceq> ") == "\u{1}\u{1B}[1m\u{1}oceq> ")
    }

    @Test("escape sequences are fenced, runs together")
    func fenced() {
        #expect(
            EditLineReader.fencePrompt("\u{1B}[1;32moceq\u{1B}[0m> ")
                == "\u{1}\u{1B}[1;32m\u{1}oceq\u{1}\u{1B}[0m\u{1}> ")
        #expect(
            EditLineReader.fencePrompt("\u{1B}[1m\u{1B}[32moceq> ") == "\u{1}\u{1B}[1m\u{1B}[32m\u{1}oceq> ")
        #expect(
            EditLineReader.fencePrompt("\u{1B}]8;;http://x\u{7}oceq> ") == "\u{1}\u{1B}]8;;http://x\u{7}\u{1}oceq> ")
    }

    @Test("a trailing sequence moves before the last printing character, which libedit needs")
    func trailing() {
        #expect(
            EditLineReader.fencePrompt("\u{1B}[32moceq> \u{1B}[0m") == "\u{1}\u{1B}[32m\u{1}oceq>\u{1}\u{1B}[0m\u{1} ")
    }
}
