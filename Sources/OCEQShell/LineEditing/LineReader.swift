/// Where the loop gets its lines: libedit on a terminal, plain stdin otherwise, a fake in tests.
public protocol LineReader: AnyObject {
    /// Reads one line (without its newline) after showing `prompt`; `.interrupted` for Ctrl-C, `.end` for Ctrl-D/EOF.
    func readLine(prompt: String) -> LineReadResult
    /// Records a finished (possibly multi-line) statement in history; readers without history ignore it.
    func addHistory(_ entry: String)
}
public enum LineReadResult: Equatable, Sendable { case line(String), interrupted, end }
