// The lexer: one pass over UTF-8 bytes, never fails. Problems it can see on its own (a string
// without its closing quote) are recorded on the token; the parser turns them into diagnostics in
// context, so a lone `$` can be a plain word in `echo` and an error in a condition.
//
// Line breaks inside parentheses are whitespace, so a statement continues on the next line while a
// parenthesis is open (the REPL uses the same rule through `InputState`). A stray `)` never takes
// the depth below zero. `#` starts a comment only where a token could start; inside a word it is
// part of the word (`a#b`). A UTF-8 byte order mark at the very start is skipped.

/// Turns source text into tokens.
package struct Lexer {
    /// Whether the input ended inside parentheses or a string, as found by `tokenize`.
    package struct Summary: Sendable, Hashable {
        /// Open parentheses not yet closed at the end of the input.
        package var openParentheses: Int
        /// True when the last string has no closing quote.
        package var endsInsideString: Bool
    }

    /// Tokens of `source`, ending with one `.end` token, and a summary of what is still open.
    package static func tokenize(_ source: SourceText) -> (tokens: [Token], summary: Summary) {
        source.bytes.withUnsafeBufferPointer { buffer in
            var lexer = LexerState(bytes: buffer)
            return lexer.run()
        }
    }

    /// True for bytes that may continue a word: those that start one, and `# $ @`.
    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        isWordStartByte(byte) || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@")
    }

    /// True for bytes that may start a word: ASCII letters and digits, `_ - . : / + * ? %`, and
    /// every byte of a non-ASCII character.
    @inline(__always)
    static func isWordStartByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x80...0xFF: return true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"),
            UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "%"):
            return true
        default: return false
        }
    }

    static func isOperatorByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "~"), UInt8(ascii: "^"), UInt8(ascii: "<"),
            UInt8(ascii: ">"):
            return true
        default: return false
        }
    }
}

struct LexerState {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    var tokens: [Token] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        tokens.reserveCapacity(bytes.count / 3 + 2)
    }

    mutating func run() -> (tokens: [Token], summary: Lexer.Summary) {
        var space = true
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        var endsInsideString = false
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            let start = index
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                index += 1
                space = true
                continue
            case UInt8(ascii: "\n"):
                index += 1
                if depth == 0 { append(.newline, start, space) }
                space = true
                continue
            case UInt8(ascii: "#"):
                while index < count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                space = true
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while index < count && bytes[index] != byte { index += 1 }
                let terminated = index < count
                if terminated { index += 1 }
                endsInsideString = !terminated
                tokens.append(
                    Token(
                        kind: .string, span: SourceSpan(start: start, end: index), spaceBefore: space,
                        isTerminated: terminated))
            case UInt8(ascii: "("):
                index += 1
                depth += 1
                append(.leftParen, start, space)
            case UInt8(ascii: ")"):
                index += 1
                depth = max(0, depth - 1)
                append(.rightParen, start, space)
            case UInt8(ascii: ","):
                index += 1
                append(.comma, start, space)
            case UInt8(ascii: ";"):
                index += 1
                append(.semicolon, start, space)
            case UInt8(ascii: "|"):
                index += 1
                append(.pipe, start, space)
            case UInt8(ascii: "$"):
                index += 1
                lexReference(start: start, space: space, nameKind: .variable, allowsNames: true)
            case UInt8(ascii: "@"):
                index += 1
                lexReference(start: start, space: space, nameKind: .row, allowsNames: false)
            default:
                if Lexer.isOperatorByte(byte) {
                    index += 1
                    while index < count && Lexer.isOperatorByte(bytes[index]) { index += 1 }
                    append(.op, start, space)
                } else if Lexer.isWordStartByte(byte) {
                    index += 1
                    skipWord()
                    append(.word, start, space)
                } else {
                    index += 1
                    append(.other, start, space)
                }
            }
            space = false
        }
        tokens.append(Token(kind: .end, span: .at(count), spaceBefore: space))
        return (tokens, Lexer.Summary(openParentheses: depth, endsInsideString: endsInsideString))
    }

    @inline(__always)
    mutating func append(_ kind: TokenKind, _ start: Int, _ space: Bool) {
        tokens.append(Token(kind: kind, span: SourceSpan(start: start, end: index), spaceBefore: space))
    }

    @inline(__always)
    mutating func skipWord() {
        while index < bytes.count && Lexer.isWordByte(bytes[index]) { index += 1 }
    }

    /// `$name`, `$12`, `@3`; a sigil followed by anything else is an `.other` token for the sigil
    /// alone. A reference that runs on into word characters (`@2x`, `$1a`) stays one `.word`.
    mutating func lexReference(start: Int, space: Bool, nameKind: TokenKind, allowsNames: Bool) {
        let count = bytes.count
        guard index < count else { return append(.other, start, space) }
        let first = bytes[index]
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            while index < count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            if index < count && Lexer.isWordByte(bytes[index]) {
                skipWord()
                return append(.word, start, space)
            }
            return append(nameKind == .variable ? .argument : .row, start, space)
        }
        let isNameStart =
            (first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z"))
            || (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")) || first == UInt8(ascii: "_")
        if allowsNames && isNameStart {
            while index < count && LexerState.isNameByte(bytes[index]) { index += 1 }
            if index < count && Lexer.isWordByte(bytes[index]) {
                skipWord()
                return append(.word, start, space)
            }
            return append(.variable, start, space)
        }
        append(.other, start, space)
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}
