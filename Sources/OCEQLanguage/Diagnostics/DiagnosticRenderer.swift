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
// nothing typed can drive the terminal. With `redact` set (the shell's secrets), the line is shown
// redacted and the caret is placed in the redacted line; the header keeps the file's column.
//
// A list is bounded here, for every caller (scripts, the REPL, plugins, lint): the first
// `maximumShown` diagnostics, then one line `and 9,990 more errors`, so a script that calls a
// command of 10,000 parameters with none prints ten errors, not ten thousand.

/// Renders diagnostics as text.
package struct DiagnosticRenderer: Sendable {
    /// The file the source came from, shown as `FILE:LINE:COL:`; nil for interactive input.
    package var fileName: String?
    /// Whether to add ANSI colour.
    package var colors: Bool
    /// Hides secrets in the echoed source line (nil: the line as it is). The caret and `~` follow
    /// the hidden text: a span after a secret moves with it, one on a secret covers its placeholder.
    package var redact: (@Sendable (String) -> String)?

    /// A renderer for `fileName` (nil for interactive input), hiding secrets with `redact`.
    package init(fileName: String? = nil, colors: Bool = false, redact: (@Sendable (String) -> String)? = nil) {
        self.fileName = fileName
        self.colors = colors
        self.redact = redact
    }

    /// The most diagnostics one list shows; the rest are counted in one line.
    package static let maximumShown = 10

    /// The first `maximumShown` diagnostics in turn, each ending with a line break, then
    /// `and N more errors` for the others.
    package func render(_ diagnostics: [Diagnostic], in source: SourceText) -> String {
        let lineStarts = source.lineStarts
        var out = ""
        for diagnostic in diagnostics.prefix(Self.maximumShown) {
            render(diagnostic, in: source, lineStarts: lineStarts, into: &out)
        }
        if let more = Self.moreLine(diagnostics) { out += more + "\n" }
        return out
    }

    /// `and 9,990 more errors` (`warnings`, or `problems` when both) for the diagnostics after the
    /// first `maximumShown`; nil when there are none.
    package static func moreLine(_ diagnostics: [Diagnostic]) -> String? {
        let rest = diagnostics.dropFirst(maximumShown)
        guard !rest.isEmpty else { return nil }
        let errors = rest.filter { $0.severity == .error }.count
        let noun = errors == rest.count ? "error" : errors == 0 ? "warning" : "problem"
        return "and \(grouped(rest.count)) more \(noun)\(rest.count == 1 ? "" : "s")"
    }

    /// `count` with a comma between groups of three digits (`9,990`).
    static func grouped(_ count: Int) -> String {
        var digits = String(count)
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }

    /// One diagnostic and its notes.
    package func render(_ diagnostic: Diagnostic, in source: SourceText) -> String {
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
    package func header(_ severity: Severity, _ message: String, at location: SourceLocation?) -> String {
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
        out += excerpt(span, at: location, source, lineStarts)
    }

    /// The line of `span` with its number, and under it a caret at the span's start and `~` under
    /// the rest of it (up to the end of the line).
    package func excerpt(_ span: SourceSpan, in source: SourceText) -> String {
        let lineStarts = source.lineStarts
        return excerpt(span, at: source.location(of: span.start, lineStarts: lineStarts), source, lineStarts)
    }

    func excerpt(_ span: SourceSpan, at location: SourceLocation, _ source: SourceText, _ lineStarts: [Int]) -> String {
        let line = source.lineText(location.line, lineStarts: lineStarts)
        let gutter = String(location.line)
        let pad = String(repeating: " ", count: gutter.count)
        var characters = Array(line)
        var column = min(location.column - 1, characters.count)
        let lineEndOffset = lineStarts[location.line - 1] + line.utf8.count
        let spanEnd = min(span.end, lineEndOffset)
        let width = spanEnd > span.start ? source.text(in: SourceSpan(start: span.start, end: spanEnd)).count : 0
        var end = min(column + width, characters.count)
        if let redact {
            let shown = Array(redact(line))
            if shown != characters {
                (column, end) = (
                    Self.redactedPosition(column, in: characters, shown: shown, redact),
                    Self.redactedPosition(end, in: characters, shown: shown, redact)
                )
                characters = shown
            }
        }
        var out = gutter + " | " + DiagnosticRenderer.printable(String(characters)) + "\n"
        var marker = ""
        for character in characters[0..<column] { marker += character == "\t" ? "\t" : " " }
        let underline = "^" + String(repeating: "~", count: max(0, end - column - 1))
        out += pad + " | " + marker + paint(underline, "1;32") + "\n"
        return out
    }

    /// Where character `position` of `line` is in `shown`, the line redacted: the end of the longest
    /// prefix of `line`, up to `position`, whose redaction begins `shown`. A position inside a secret
    /// thus goes to the start of its placeholder, one just after it to the placeholder's end.
    static func redactedPosition(
        _ position: Int, in line: [Character], shown: [Character], _ redact: (String) -> String
    ) -> Int {
        var length = position
        while length > 0 {
            let prefix = Array(redact(String(line[..<length])))
            if prefix.count <= shown.count, shown[..<prefix.count].elementsEqual(prefix) { return prefix.count }
            length -= 1
        }
        return 0
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
