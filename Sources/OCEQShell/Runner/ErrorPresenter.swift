// The one error funnel: any error of a statement becomes text on stderr. Diagnostics and usage
// errors with a span are drawn like the Swift compiler's (the line and a caret); other errors are
// one line, `FILE:LINE:COL: error: ...` in a file and `error: ...` in the REPL. Every message is
// cleaned of control characters (server text can end up in it).

import OCEQLanguage

/// Turns errors into text.
public struct ErrorPresenter {
    /// The file being run; nil for interactive input.
    public var fileName: String?
    /// The text the statement came from.
    public var source: SourceText

    /// Whether to colour the messages.
    public var colors: Bool

    /// A presenter for statements of `source` (from `fileName`, if a file).
    public init(fileName: String?, source: SourceText, colors: Bool = false) {
        self.fileName = fileName
        self.source = source
        self.colors = colors
    }

    /// The message for `error` raised by the statement at `span`.
    public func message(for error: ShellError, statementSpan: SourceSpan) -> String {
        let renderer = DiagnosticRenderer(fileName: fileName, colors: colors)
        switch error {
        case .diagnostics(let diagnostics):
            return renderer.render(diagnostics.diagnostics, in: source)
        case .usage(let message, let span?):
            return caret(message, at: span, renderer: renderer)
        case .alreadyReported:
            return ""
        default:
            let location = source.location(of: statementSpan.start)
            return renderer.header(.error, TerminalText.clean(error.description), at: location) + "\n"
        }
    }

    /// `message` with the line of `span` and a caret under it.
    func caret(_ message: String, at span: SourceSpan, renderer: DiagnosticRenderer) -> String {
        let lineStarts = source.lineStarts
        let location = source.location(of: span.start, lineStarts: lineStarts)
        var out = renderer.header(.error, TerminalText.clean(message), at: location) + "\n"
        let line = source.lineText(location.line, lineStarts: lineStarts)
        let gutter = String(location.line)
        out += gutter + " | " + TerminalText.clean(line) + "\n"
        let width = max(
            1,
            source.text(
                in: SourceSpan(start: span.start, end: min(span.end, lineStarts[location.line - 1] + line.utf8.count))
            ).count)
        out += String(repeating: " ", count: gutter.count) + " | " + String(repeating: " ", count: location.column - 1)
        out += "^" + String(repeating: "~", count: width - 1) + "\n"
        return out
    }
}
