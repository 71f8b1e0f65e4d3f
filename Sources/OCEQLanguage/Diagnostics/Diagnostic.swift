/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable {
    case error, warning, note
}

/// A problem found in source text: a message from the catalogue, the bytes it is about, and
/// notes pointing elsewhere (where a parenthesis was opened, where a clause was first given).
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// A secondary message with its own span.
    public struct Note: Sendable, Hashable {
        /// The note's text (lower-case, like every message).
        public var message: String
        /// The bytes the note is about.
        public var span: SourceSpan

        /// A note about `span`.
        public init(_ message: String, span: SourceSpan) {
            self.message = message
            self.span = span
        }
    }

    /// What is wrong.
    public var message: DiagnosticMessage
    /// The bytes it is about; empty for a position between two bytes.
    public var span: SourceSpan
    /// Further places worth showing.
    public var notes: [Note]

    /// A diagnostic for `message` at `span`.
    public init(_ message: DiagnosticMessage, at span: SourceSpan, notes: [Note] = []) {
        self.message = message
        self.span = span
        self.notes = notes
    }

    /// The message's severity.
    public var severity: Severity { message.severity }

    /// The message's text.
    public var text: String { message.text }

    public var description: String { "\(span): \(severity.rawValue): \(text)" }
}

/// Diagnostics that stopped a statement from compiling.
public struct DiagnosticError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The diagnostics, in source order.
    public var diagnostics: [Diagnostic]

    /// Wraps `diagnostics`.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
