/// The one cursor over ASCII text that every date parser uses: the API's date forms
/// (`CivilDateTime`), the language's date literals and HTTP dates.
package struct ASCIIScanner {
    /// The text's UTF-8 bytes.
    package let bytes: [UInt8]
    /// The next byte to read.
    package var index = 0

    /// A cursor at the start of `text`.
    package init(_ text: String) { bytes = Array(text.utf8) }

    /// True when every byte has been read.
    package var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, if any.
    package var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Reads exactly `count` decimal digits.
    package mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    /// Reads one or more decimal digits (at most `limit`), returning the value and the count.
    package mutating func someDigits(limit: Int = 18) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while let byte = peek, byte >= 0x30, byte <= 0x39, count < limit {
            value = value * 10 + Int(byte - 0x30)
            count += 1
            index += 1
        }
        return count == 0 ? nil : (value, count)
    }

    /// Consumes `byte` if it is next.
    package mutating func skip(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// Consumes any run of spaces.
    package mutating func skipSpaces() {
        while peek == 0x20 { index += 1 }
    }

    /// Reads a run of ASCII letters.
    package mutating func word() -> String {
        let start = index
        while let byte = peek, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x7A { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
