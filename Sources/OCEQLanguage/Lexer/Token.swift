/// The kinds of token the lexer produces. The lexer knows no keywords: a keyword is a `word`
/// whose text the parser recognises in context.
package enum TokenKind: UInt8, Sendable, Hashable {
    /// A bareword: letters, digits and `_ - . : / + * ? % # $ @` (the last three not first), or
    /// any non-ASCII character. Names, numbers, dates, ids and keywords are all words.
    case word
    /// A quoted string, `"..."` or `'...'`, with no escapes. May span lines.
    case string
    /// `$name`
    case variable
    /// `$` followed by digits: a script argument (`$1` to `$9` are valid).
    case argument
    /// `@` followed by digits: a row of the last listing.
    case row
    /// A run of the operator characters `= ! ~ ^ < >`, valid or not.
    case op
    /// `(`
    case leftParen
    /// `)`
    case rightParen
    /// `,`
    case comma
    /// `;`
    case semicolon
    /// A line break outside parentheses.
    case newline
    /// `|`
    case pipe
    /// Any other single character (`&`, `{`, a lone `$` or `@`, a control character, ...).
    case other
    /// The end of the input.
    case end
}

/// One token: a kind and the bytes it covers.
package struct Token: Sendable, Hashable {
    /// What the token is.
    package var kind: TokenKind
    /// The bytes it covers, quotes included for strings.
    package var span: SourceSpan
    /// True when whitespace or a comment separates it from the previous token.
    package var spaceBefore: Bool
    /// For a string: true when its closing quote was found.
    package var isTerminated: Bool

    /// A token of `kind` over `span`.
    package init(kind: TokenKind, span: SourceSpan, spaceBefore: Bool, isTerminated: Bool = true) {
        self.kind = kind
        self.span = span
        self.spaceBefore = spaceBefore
        self.isTerminated = isTerminated
    }

    /// True for `;`, a line break and the end of input.
    package var isSeparator: Bool { kind == .semicolon || kind == .newline || kind == .end }
}
