// The one error funnel: any error of a statement becomes text on stderr. Diagnostics and usage
// errors with a span are drawn like the Swift compiler's (the line and a caret, by
// DiagnosticRenderer); other errors are one line, `FILE:LINE:COL: error: ...` in a file and
// `error: ...` in the REPL. Every message is cleaned of control characters (server text can end up
// in it). The source line shown is redacted as the session's sinks will redact it, so that the
// caret stays under the right text.

import OCEQLanguage

/// Turns errors into text.
public struct ErrorPresenter {
    /// The file being run; nil for interactive input.
    public var fileName: String?
    /// The text the statement came from.
    public var source: SourceText

    /// Whether to colour the messages.
    public var colors: Bool
    /// Hides secrets in the source line shown (see `DiagnosticRenderer.redact`).
    public var redact: (@Sendable (String) -> String)?

    /// A presenter for statements of `source` (from `fileName`, if a file), hiding secrets in the
    /// source lines it shows with `redact`.
    public init(
        fileName: String?, source: SourceText, colors: Bool = false, redact: (@Sendable (String) -> String)? = nil
    ) {
        self.fileName = fileName
        self.source = source
        self.colors = colors
        self.redact = redact
    }

    /// The message for `error` raised by the statement at `span`.
    public func message(for error: ShellError, statementSpan: SourceSpan) -> String {
        let renderer = DiagnosticRenderer(fileName: fileName, colors: colors, redact: redact)
        switch error {
        case .diagnostics(let diagnostics):
            return renderer.render(diagnostics.diagnostics, in: source)
        case .usage(let message, let span?):
            let location = source.location(of: span.start)
            return renderer.header(.error, TerminalText.clean(message), at: location) + "\n"
                + renderer.excerpt(span, in: source)
        case .alreadyReported:
            return ""
        default:
            let location = source.location(of: statementSpan.start)
            return renderer.header(.error, TerminalText.clean(error.description), at: location) + "\n"
        }
    }
}
