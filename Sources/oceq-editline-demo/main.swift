// Reads lines with EditLineReader and echoes them, for the pseudo-terminal test and for trying libedit by hand:
// `got: <line>` per line, `interrupted` on Ctrl-C, `end` on Ctrl-D. History goes to the usual file (point
// XDG_STATE_HOME elsewhere to keep it out of yours); Tab completes a few fixed words.
import OCEQShell
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Ctrl-C subscriber outside the reader, as the REPL's own is: while a line is read, the reader's subscriber
/// alone hears Ctrl-C (it drops the line), and the process goes on.
let outerInterrupts = Atomic<Int>(0)
let outer = Interrupts.subscribe { outerInterrupts.add(1, ordering: .relaxed) }

guard EditLineReader.isUsable() else {
    print("oceq-editline-demo: stdin is not a terminal")
    exit(2)
}
let history = History(path: History.defaultPath())
do {
    try history.load()
} catch {
    print("oceq-editline-demo: \(error)")
}
guard let reader = EditLineReader(programName: "oceq", history: history) else {
    print("oceq-editline-demo: libedit could not start")
    exit(2)
}
let words = ["select", "search", "show", "type=", "OCEGettingStartedArticle", "OCEGettingStartedHomePage"]
reader.completer = { line, cursor in
    let word = CompletionAction.word(before: String(line.prefix(cursor)))
    return Completion(
        word: String(word), candidates: words.filter { $0.hasPrefix(word) }.map { CompletionCandidate($0) })
}
let prompt = "\u{1B}[1;32moceq\u{1B}[0m> "
loop: while true {
    switch reader.readLine(prompt: prompt) {
    case .line(let line):
        print("got: \(line)")
        reader.addHistory(line)
    case .interrupted:
        print("interrupted")
    case .end:
        print("end")
        print("outer Ctrl-C subscriber called \(outerInterrupts.load(ordering: .relaxed)) time(s)")
        break loop
    }
}
outer.cancel()
