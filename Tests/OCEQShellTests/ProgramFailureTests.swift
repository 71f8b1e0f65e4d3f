// The presenter's decisions for errors that end a program: one prefix style, the stream's text and
// the exit code.

import OCEQCore
import Testing

@testable import OCEQShell

@Suite("Program failures")
struct ProgramFailureTests {
    @Test("a usage error is the program's prefix, the message, then the usage; exit 2")
    func usage() {
        let failure = ErrorPresenter.programFailure(
            UsageError("unknown option '--x'"), program: "oceq serve", usage: "usage: U")
        #expect(failure == .init(text: "oceq serve: unknown option '--x'\nusage: U\n", code: 2))
        let bare = ErrorPresenter.programFailure(UsageError("cannot read script s"), program: "oceq")
        #expect(bare == .init(text: "oceq: cannot read script s\n", code: 2))
    }

    @Test("any other failure is one cleaned line; exit 1")
    func failure() {
        let failure = ErrorPresenter.programFailure(
            ShellError.connection("cannot reach \u{1B}[2Jthe channel"), program: "oceq")
        #expect(failure.code == 1)
        #expect(failure.text.hasPrefix("oceq: cannot reach "))
        #expect(!failure.text.contains("\u{1B}"))
        #expect(failure.text.hasSuffix("the channel\n"))
    }

    @Test("a warning keeps the program going and says so")
    func warning() {
        #expect(ErrorPresenter.programWarning("careful", program: "oceq") == "oceq: warning: careful\n")
    }
}
