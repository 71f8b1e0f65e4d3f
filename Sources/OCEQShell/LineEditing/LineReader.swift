/// Where the loop gets its lines: libedit on a terminal, plain stdin otherwise, a fake in tests.
///
/// A reader blocks in `readLine`; the REPL never calls it itself but through `LineInput`, which keeps the
/// reader on a thread of its own and lets the loop await each line.
package protocol LineReader: AnyObject {
    /// Reads one line (without its newline) after showing `prompt`; `.interrupted` for Ctrl-C, `.end` for Ctrl-D/EOF.
    func readLine(prompt: String) -> LineReadResult
    /// Records a finished (possibly multi-line) statement in history; readers without history ignore it.
    func addHistory(_ entry: String)
    /// What Tab offers while the next lines are read (nil: nothing); readers without completion ignore it.
    func setCompleter(_ completer: Completer?)
}

extension LineReader {
    /// Readers without completion ignore the completer.
    package func setCompleter(_ completer: Completer?) {}
}

/// What one `readLine` gave.
package enum LineReadResult: Equatable, Sendable { case line(String), interrupted, end }
