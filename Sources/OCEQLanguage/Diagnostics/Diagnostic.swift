/// How serious a diagnostic is.
package enum Severity: String, Sendable, Hashable {
    case error, warning, note
}

/// A problem found in source text: a message from the catalogue, the bytes it is about, and
/// notes pointing elsewhere (where a parenthesis was opened, where a clause was first given).
package struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// A secondary message with its own span.
    package struct Note: Sendable, Hashable {
        /// The note's text (lower-case, like every message).
        package var message: String
        /// The bytes the note is about.
        package var span: SourceSpan

        /// A note about `span`.
        package init(_ message: String, span: SourceSpan) {
            self.message = message
            self.span = span
        }
    }

    /// What is wrong.
    package var message: DiagnosticMessage
    /// The bytes it is about; empty for a position between two bytes.
    package var span: SourceSpan
    /// Further places worth showing.
    package var notes: [Note]

    /// A diagnostic for `message` at `span`.
    package init(_ message: DiagnosticMessage, at span: SourceSpan, notes: [Note] = []) {
        self.message = message
        self.span = span
        self.notes = notes
    }

    /// The message's severity.
    package var severity: Severity { message.severity }

    /// The message's text.
    package var text: String { message.text }

    package var description: String { "\(span): \(severity.rawValue): \(text)" }
}

/// Diagnostics that stopped a statement from compiling.
package struct DiagnosticError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The diagnostics, in source order.
    package var diagnostics: [Diagnostic]

    /// Wraps `diagnostics`.
    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// The first `DiagnosticRenderer.maximumShown` diagnostics, one a line, then how many more.
    package var description: String {
        let shown = diagnostics.prefix(DiagnosticRenderer.maximumShown).map(\.description)
        return (shown + [DiagnosticRenderer.moreLine(diagnostics)].compactMap { $0 }).joined(separator: "\n")
    }
}
