/// The quote a string was written with.
package enum QuoteStyle: Sendable, Hashable {
    /// `"text"`
    case double
    /// `'text'`
    case single
}

/// A value as written in a statement. References (`$name`, `$1`, `@2`) stay unresolved here; the
/// compiler resolves them through a `CompileEnvironment`.
package struct Value: Sendable, Hashable {
    /// What was written.
    package enum Kind: Sendable, Hashable {
        /// A quoted string, without its quotes.
        case string(String, QuoteStyle)
        /// An unquoted word that is neither a number nor a date.
        case bareword(String)
        /// An unquoted number (`42`, `-1.5`), kept as written.
        case number(String)
        /// An unquoted ISO date or date-time (`2024-03-26`, `2024-03-26T18:32:38+05:30`).
        case date(DateLiteral)
        /// `$name`: a variable set by `let` (the name without `$`).
        case variable(String)
        /// `$1` to `$9`: a script argument.
        case argument(Int)
        /// `@n`: the id of row n (from 1) of the last listing.
        case row(Int)
    }

    /// What was written.
    package var kind: Kind
    /// Where it was written, quotes and sigils included.
    package var span: SourceSpan

    /// A value of `kind` at `span`.
    package init(_ kind: Kind, span: SourceSpan = .at(0)) {
        self.kind = kind
        self.span = span
    }

    /// True for `$name`, `$n` and `@n`.
    package var isReference: Bool {
        switch kind {
        case .variable, .argument, .row: return true
        default: return false
        }
    }

    /// The text of a literal (strings without quotes, dates in their canonical form); nil for a reference.
    package var literalText: String? {
        switch kind {
        case .string(let text, _), .bareword(let text), .number(let text): return text
        case .date(let date): return date.canonicalText
        case .variable, .argument, .row: return nil
        }
    }
}
