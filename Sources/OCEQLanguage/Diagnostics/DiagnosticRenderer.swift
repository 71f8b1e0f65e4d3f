// Diagnostics drawn like the Swift compiler's: a header with the position, the source line with
// its number, and a caret under the column with `~` under the rest of the span.
//
//   blog.oceq:3:10: error: unknown operator '=='; did you mean '='?
//   3 | list type==OCEGettingStartedArticle
//     |          ^~
//
// Without a file name (the REPL) the header is just `error: ...`. Notes follow their diagnostic
// in the same form. Columns count characters, tabs in the line are kept in the marker line so
// the caret stays aligned, and control characters in the line are shown as U+FFFD so that
// nothing typed can drive the terminal.

/// Renders diagnostics as text.
public struct DiagnosticRenderer: Sendable {
    /// The file the source came from, shown as `FILE:LINE:COL:`; nil for interactive input.
    public var fileName: String?
    /// Whether to add ANSI colour.
    public var colors: Bool

    /// A renderer for `fileName` (nil for interactive input).
    public init(fileName: String? = nil, colors: Bool = false) {
        self.fileName = fileName
        self.colors = colors
    }

    /// Every diagnostic in turn, each ending with a line break.
    public func render(_ diagnostics: [Diagnostic], in source: SourceText) -> String {
        let lineStarts = source.lineStarts
        var out = ""
        for diagnostic in diagnostics {
            render(diagnostic, in: source, lineStarts: lineStarts, into: &out)
        }
        return out
    }

    /// One diagnostic and its notes.
    public func render(_ diagnostic: Diagnostic, in source: SourceText) -> String {
        var out = ""
        render(diagnostic, in: source, lineStarts: source.lineStarts, into: &out)
        return out
    }

    func render(_ diagnostic: Diagnostic, in source: SourceText, lineStarts: [Int], into out: inout String) {
        block(diagnostic.severity, diagnostic.text, diagnostic.span, source, lineStarts, &out)
        for note in diagnostic.notes {
            block(.note, note.message, note.span, source, lineStarts, &out)
        }
    }

    /// The header line: `FILE:LINE:COL: error: message` or `error: message`.
    public func header(_ severity: Severity, _ message: String, at location: SourceLocation?) -> String {
        var out = ""
        if let fileName, let location {
            // A file name is text from the disk: an ESC in it must not drive the terminal either.
            out += "\(DiagnosticRenderer.printable(fileName)):\(location.line):\(location.column): "
        }
        out += paint(severity.rawValue + ":", severity == .error ? "1;31" : severity == .warning ? "1;35" : "1;36")
        out += " " + paint(DiagnosticRenderer.printable(message), "1")
        return out
    }

    func block(
        _ severity: Severity, _ message: String, _ span: SourceSpan, _ source: SourceText, _ lineStarts: [Int],
        _ out: inout String
    ) {
        let location = source.location(of: span.start, lineStarts: lineStarts)
        out += header(severity, message, at: location) + "\n"
        let line = source.lineText(location.line, lineStarts: lineStarts)
        let gutter = String(location.line)
        let pad = String(repeating: " ", count: gutter.count)
        out += gutter + " | " + DiagnosticRenderer.printable(line) + "\n"
        let characters = Array(line)
        let column = min(location.column - 1, characters.count)
        var marker = ""
        for character in characters[0..<column] { marker += character == "\t" ? "\t" : " " }
        let lineEndOffset = lineStarts[location.line - 1] + line.utf8.count
        let spanEnd = min(span.end, lineEndOffset)
        let width =
            spanEnd > span.start
            ? source.text(in: SourceSpan(start: span.start, end: spanEnd)).count : 0
        let underline = "^" + String(repeating: "~", count: max(0, width - 1))
        out += pad + " | " + marker + paint(underline, "1;32") + "\n"
    }

    func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// `line` with control characters other than tab replaced by U+FFFD.
    static func printable(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { isControl($0) }) else { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            out.append(isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }
}
