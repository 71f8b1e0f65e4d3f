// value := "string" | 'string' | bareword | number | date | $variable | $1..$9 | @row
//
// `parseValue` returns nil only when no value is there at all (nothing consumed). A token that is
// there but wrong (a bad date, `$12`, `@0`, a keyword) is reported and replaced by a placeholder,
// so that parsing continues and later problems in the statement are reported too; a statement with
// any diagnostic never reaches the result, so placeholders never escape.

extension ParserState {
    /// The value after `previous` (named in "expected a value after ..." when there is none).
    mutating func parseValue(after previous: Token) -> Value? {
        let token = current
        switch token.kind {
        case .string:
            advance()
            return stringValue(token)
        case .word:
            if let keyword = keyword(token) {
                if keyword.startsClause || keyword == .and || keyword == .or {
                    diagnose(.expectedValue(after: text(previous)), at: insertionPoint)
                    return nil
                }
                diagnose(.keywordAsValue(keyword), at: token.span)
                advance()
                return placeholder(token)
            }
            advance()
            return wordValue(token)
        case .variable:
            advance()
            return Value(
                .variable(text(SourceSpan(start: token.span.start + 1, end: token.span.end))), span: token.span)
        case .argument:
            advance()
            return argumentValue(token)
        case .row:
            advance()
            return rowValue(token)
        case .other where isChar(token, UInt8(ascii: "$")):
            diagnose(.expectedVariableNameAfterDollar, at: token.span)
            advance()
            skipAdjacentWord()
            return placeholder(token)
        case .other where isChar(token, UInt8(ascii: "@")):
            diagnose(.expectedRowNumber, at: token.span)
            advance()
            skipAdjacentWord()
            return placeholder(token)
        default:
            diagnose(.expectedValue(after: text(previous)), at: insertionPoint)
            return nil
        }
    }

    /// Tokens that, touching a string that ends in `\"`, carry on the value the user meant (not `)`,
    /// `,`, `;` or a line break, which may follow `"C:\"`).
    static let continuesValue: Set<TokenKind> = [.word, .string, .variable, .argument, .row, .op, .other]

    /// Whether the string `token` ends in `\"` (or `\'`) that `next` touches: a quote the user meant to
    /// escape, which ended the string instead.
    static func endsWithEscapedQuote(_ token: Token, before next: Token, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        token.kind == .string && token.isTerminated && token.span.length >= 3
            && bytes[token.span.end - 2] == UInt8(ascii: "\\") && !next.spaceBefore
            && continuesValue.contains(next.kind)
    }

    func placeholder(_ token: Token) -> Value {
        Value(.bareword(""), span: token.span)
    }

    mutating func skipAdjacentWord() {
        if current.kind == .word && !current.spaceBefore { advance() }
    }

    /// The string `token` as a value. With `checkingEscapes`, one cut short by a quote the user meant
    /// to escape is reported; a generic command's argument is not checked, since a command such as
    /// `gql` reads its text as written, where `\"` may be the escape of another language.
    mutating func stringValue(_ token: Token, checkingEscapes: Bool = true) -> Value {
        guard token.isTerminated, token.span.length >= 2 else {
            diagnose(.unterminatedString, at: SourceSpan(start: token.span.start, end: token.span.start + 1))
            return placeholder(token)
        }
        let quote: QuoteStyle = bytes[token.span.start] == UInt8(ascii: "\"") ? .double : .single
        // `"say \"hi\""`: the string ends at the escaped quote and the rest of the text runs on. A string
        // may end with a backslash (`"C:\"`), so only one that the next token touches is taken for this.
        if checkingEscapes && Self.endsWithEscapedQuote(token, before: current, bytes) {
            diagnose(.escapedQuote(quote), at: SourceSpan(start: token.span.end - 2, end: token.span.end))
            // The rest of the value the user meant, up to the next space, is not parsed on its own.
            while !current.spaceBefore && Self.continuesValue.contains(current.kind) { advance() }
            return placeholder(token)
        }
        let inner = text(SourceSpan(start: token.span.start + 1, end: token.span.end - 1))
        return Value(.string(inner, quote), span: token.span)
    }

    /// A bareword, number or date.
    mutating func wordValue(_ token: Token) -> Value {
        let span = token.span
        let text = text(span)
        if ParserState.isNumber(bytes, span) { return Value(.number(text), span: span) }
        if DateLiteral.looksLikeDate(UnsafeBufferPointer(rebasing: bytes[span.start..<span.end])) {
            switch DateLiteral.parse(text) {
            case .success(let date): return Value(.date(date), span: span)
            case .failure(let reason):
                diagnose(.invalidDate(text, reason: reason.description), at: span)
                return placeholder(token)
            }
        }
        return Value(.bareword(text), span: span)
    }

    /// `-?[0-9]+(\.[0-9]+)?`
    static func isNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ span: SourceSpan) -> Bool {
        var index = span.start
        if index < span.end && bytes[index] == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while index < span.end && bytes[index] >= 0x30 && bytes[index] <= 0x39 {
            index += 1
            digits += 1
        }
        guard digits > 0 else { return false }
        if index == span.end { return true }
        guard bytes[index] == UInt8(ascii: "."), index + 1 < span.end else { return false }
        index += 1
        while index < span.end {
            guard bytes[index] >= 0x30 && bytes[index] <= 0x39 else { return false }
            index += 1
        }
        return true
    }

    /// `$1` to `$9`.
    mutating func argumentValue(_ token: Token) -> Value {
        let span = token.span
        if span.length == 2, bytes[span.start + 1] >= UInt8(ascii: "1") {
            return Value(.argument(Int(bytes[span.start + 1] - UInt8(ascii: "0"))), span: span)
        }
        diagnose(.argumentOutOfRange(text(span)), at: span)
        return placeholder(token)
    }

    /// `@1`, `@2`, ...
    mutating func rowValue(_ token: Token) -> Value {
        let span = token.span
        var value = 0
        var valid = span.length <= 10
        if valid {
            for offset in (span.start + 1)..<span.end {
                value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
            }
            valid = value >= 1 && value <= Int(Int32.max)
        }
        guard valid else {
            diagnose(.rowNumberInvalid(text(span)), at: span)
            return placeholder(token)
        }
        return Value(.row(value), span: span)
    }
}
