// The lexer of `q`: words, double-quoted values, parentheses and runs of other punctuation.
//
// Tokens are produced on demand so errors come out in reading order (an unknown operator before
// an unterminated string further right). Offsets count Unicode scalars.

/// One token of a `q` text.
struct QueryToken: Equatable {
    enum Kind: Equatable {
        /// A run of letters, digits, `_`, `-`, `.`: field names, operators, AND/OR/NOT.
        case word(String)
        /// The text between double quotes (no escapes: the next `"` ends it).
        case string(String)
        case leftParenthesis
        case rightParenthesis
        /// A run of other punctuation, such as `=` or `!=`; only ever an error.
        case symbol(String)
        case end
    }

    var kind: Kind
    /// Offset of the first scalar (the opening quote for strings).
    var offset: Int

    /// The keyword this word spells (`and`, `or`, `not`, any case), or nil.
    var keyword: String? {
        guard case .word(let text) = kind else { return nil }
        let lower = text.lowercased()
        return ["and", "or", "not"].contains(lower) ? lower : nil
    }
}

/// Splits a `q` text into tokens, one at a time.
struct QueryLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The number of scalars in the text.
    var count: Int { scalars.count }

    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            switch s {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": return true
            default: return false
            }
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
            return true
        default:
            return false
        }
    }

    /// The next token, or an error for an unterminated string.
    mutating func next() throws(QuerySyntaxError) -> QueryToken {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        guard index < scalars.count else { return QueryToken(kind: .end, offset: scalars.count) }
        let start = index
        let s = scalars[index]
        switch s {
        case "(":
            index += 1
            return QueryToken(kind: .leftParenthesis, offset: start)
        case ")":
            index += 1
            return QueryToken(kind: .rightParenthesis, offset: start)
        case "\"":
            index += 1
            var value = String.UnicodeScalarView()
            while index < scalars.count, scalars[index] != "\"" {
                value.append(scalars[index])
                index += 1
            }
            guard index < scalars.count else {
                throw QuerySyntaxError(offset: start, message: "unterminated value: missing closing '\"'")
            }
            index += 1
            return QueryToken(kind: .string(String(value)), offset: start)
        default:
            let isWord = Self.isWordScalar(s)
            var text = String.UnicodeScalarView()
            while index < scalars.count {
                let c = scalars[index]
                if c.properties.isWhitespace || c == "(" || c == ")" || c == "\"" || Self.isWordScalar(c) != isWord {
                    break
                }
                text.append(c)
                index += 1
            }
            return QueryToken(kind: isWord ? .word(String(text)) : .symbol(String(text)), offset: start)
        }
    }
}
