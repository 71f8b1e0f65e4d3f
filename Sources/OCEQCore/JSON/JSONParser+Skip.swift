// Skipping a value: the same checks as parsing it (structure, depth, strings' escapes and control
// characters, numbers, literals), so a document is accepted or refused exactly as when every member
// is built, but nothing is allocated. A download's listing skips every `links` member: links were
// 60 % of the bytes of a page of images, and building them (then redacting their hrefs) most of the
// cost of reading it (callgrind, `download` of 74 images).

extension JSONParser {
    /// Moves past one value, checking it as `parseValue` would.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try skipContainer(close: UInt8(ascii: "}"), members: true)
        case UInt8(ascii: "["): try skipContainer(close: UInt8(ascii: "]"), members: false)
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    /// An object (`members`: `"name": value` pairs) or an array, up to its `close` bracket.
    private mutating func skipContainer(close: UInt8, members: Bool) throws(JSONParseError) {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            if members {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw fail("expected a member name")
                }
                try skipString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                index += 1
                skipWhitespace()
            }
            try skipValue()
            guard try continues(to: close) else { return }
        }
    }

    /// A string, its escapes checked as `parseString` checks them. Eight bytes are looked at a time
    /// up to the first quote, backslash or control character (a skipped link's href is 150 bytes
    /// long); from there on byte by byte as `parseString` does.
    private mutating func skipString() throws(JSONParseError) {
        index += 1  // opening quote
        while index < bytes.count {
            passPlainBytes()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of input in a string") }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    _ = try parseHex4()
                default:
                    throw fail("invalid escape")
                }
            default:
                if byte < 0x20 { throw fail("control character in a string") }
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    /// Moves `index` past the bytes of a string that need no look (not a quote, a backslash or a
    /// control byte), eight at a time, stopping at the first one that does or within the last
    /// seven bytes of the input.
    @inline(__always)
    mutating func passPlainBytes() {
        while index + 8 <= bytes.count {
            let word = UInt64(
                littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(word)
            if special != 0 {
                index += special.trailingZeroBitCount >> 3
                return
            }
            index += 8
        }
    }

    /// The high bit of each byte of `word` (little-endian) that is a quote, a backslash or below
    /// 0x20; bits above the lowest one set may be wrong (a borrow), the lowest is exact.
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (zeroQuote | zeroBackslash | control) & (ones &* 0x80)
    }
}
