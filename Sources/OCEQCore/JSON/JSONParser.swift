// A strict, bounded JSON parser over UTF-8 bytes (RFC 8259).
//
// Design: one pass over an unsafe buffer, no intermediate tokens. Depth is capped so hostile
// input (a million nested arrays) fails with an error instead of overflowing the stack. Invalid
// UTF-8 inside strings is replaced with U+FFFD rather than rejected, since exports and servers
// in the wild do carry it; control characters inside strings are rejected as the RFC says.
//
// Why not Foundation's `JSONSerialization` or `JSONDecoder` (issue 15):
// - Speed, measured with Scripts/bench-json (swift 6.3.1, -O, best of 5; on a shared 2-core
//   machine the ratios moved between 17x and 78x from run to run, never below 17x):
//
//   file                        bytes   JSON.parse   JSONSerialization → JSON   JSONDecoder → JSON
//   20 KB listing (samples)     20254     119 µs        5501 µs (46x)           4986 µs (42x)
//   DeliveryDigitalAsset.json    9692      24 µs        1861 µs (78x)           1141 µs (48x)
//   largest recorded response   87751     821 µs       52807 µs (64x)          45658 µs (56x)
//
//   `JSONSerialization` alone, into its own NSArray/NSDictionary/NSNumber objects, is already 2 to
//   5 times slower than this parser; turning those into `JSON` (NSNumber's type decides int,
//   double or bool) costs the rest. `JSONDecoder` can only tell the kinds apart by trying each.
// - Behaviour the package and its tests pin, which Foundation does not give: `3.0` stays a double
//   (`JSONDecoder` makes it an `Int`); the byte offset of an error (`JSONSerialization` only words
//   a "character N" into its message); U+FFFD for invalid UTF-8 and lone surrogates (both refuse
//   the whole document); a trailing comma refused (both accept `[1,]`); duplicate keys, the last
//   wins (`JSONDecoder` keeps the first).
// Tests/OCEQCoreTests/JSONDifferentialTests.swift feeds every fixture, sample export file and fuzz
// corpus file to this parser and to `JSONSerialization` and requires the same values, and pins the
// differences above.

/// A JSON text that could not be parsed, with the byte offset where parsing stopped.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset into the input.
    public var offset: Int
    /// What was expected or found, lower-case.
    public var message: String

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension JSON {
    /// The default maximum nesting depth accepted by `parse`.
    public static let defaultMaximumDepth = 512

    /// Parses a complete JSON text (leading and trailing whitespace allowed). Members named one of
    /// `skipping`, at any depth, are checked as JSON but left out of their objects, never built (a
    /// download's listing skips `links` and `metadata`: see `JSONParser.skipValue`).
    public static func parse(
        _ bytes: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth, skipping: [String] = []
    ) throws(JSONParseError)
        -> JSON
    {
        func parseDocument(_ buffer: UnsafeBufferPointer<UInt8>) throws -> JSON {
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            parser.skipped = JSONMemberNames(skipping)
            return try parser.parseDocument()
        }
        do {
            // In place when the bytes are contiguous (an array or a slice of one), else copied.
            if let json = try bytes.withContiguousStorageIfAvailable(parseDocument) { return json }
            return try Array(bytes).withUnsafeBufferPointer(parseDocument)
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(offset: 0, message: "\(error)")
        }
    }

    /// Parses a complete JSON text given as a string.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0
    var depth = 0
    /// Members with these names are skipped (`skipValue`), not built.
    var skipped = JSONMemberNames()
    /// The array member of the top-level object whose elements are checked but not built
    /// (`deferArray`), and their byte ranges once found.
    var deferredKey: String?
    var deferredRanges: [Range<Int>] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        // A UTF-8 byte order mark is tolerated at the very start.
        if bytes.count >= 3, index == 0, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != bytes.count { throw fail("unexpected data after the value") }
        return value
    }

    func fail(_ message: String) -> JSONParseError { JSONParseError(offset: index, message: message) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input") }
        let start = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw fail("invalid literal")
        }
        index += count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maximumDepth { throw fail("nesting deeper than \(maximumDepth) levels") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        // Room for the few members most objects have (a link, a rendition format): growing from
        // one member cost as much as a tenth of parsing a page of images (callgrind).
        var members = [String: JSON](minimumCapacity: 6)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let name = try parseMemberName()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            if let key = name {
                if depth == 1, let deferredKey, key == deferredKey, index < bytes.count,
                    bytes[index] == UInt8(ascii: "[")
                {
                    members[key] = try deferArray()
                } else {
                    members[key] = try parseValue()
                }
            } else {
                try skipValue()
            }
            guard try continues(to: UInt8(ascii: "}")) else { return .object(members) }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        try enter()
        index += 1
        var elements: [JSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            guard try continues(to: UInt8(ascii: "]")) else { return .array(elements) }
        }
    }

    /// After an element of an object (`close` is `}`) or an array (`]`): moves past a comma and
    /// returns true (another element follows), or past `close`, leaving the container (false).
    /// Parsing, skipping and deferring all take this one step, so they refuse the same bytes with
    /// the same message.
    @inline(__always)
    mutating func continues(to close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw fail(
                close == UInt8(ascii: "}")
                    ? "unexpected end of input in an object" : "unexpected end of input in an array")
        }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        if bytes[index] == close {
            index += 1
            depth -= 1
            return false
        }
        throw fail(close == UInt8(ascii: "}") ? "expected ',' or '}'" : "expected ',' or ']'")
    }

    /// A member name, or nil when it is one of `skipped`. A name without escapes (every name
    /// in practice) is compared with them as bytes before a `String` is made: comparing `String`s
    /// that differ takes Unicode's slow path, which cost 4 % of a 500-image download's listing.
    /// Byte equality is `String` equality here, the skipped names being ASCII.
    mutating func parseMemberName() throws(JSONParseError) -> String? {
        guard !skipped.isEmpty else { return try parseString() }
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            // Escapes (or an error, which `parseString` reports where it is).
            let key = try parseString()
            let listed = Array(key.utf8).withUnsafeBufferPointer { skipped.contains($0) }
            return listed ? nil : key
        }
        let name = UnsafeBufferPointer(rebasing: bytes[start..<end])
        index = end + 1
        return skipped.contains(name) ? nil : String(decoding: name, as: UTF8.self)
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in a string") }
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of input in a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A surrogate pair; a lone high surrogate becomes U+FFFD.
                        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        {
                            let save = index
                            index += 2
                            let low = try parseHex4()
                            if (0xDC00...0xDFFF).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                index = save
                                code = 0xFFFD
                            }
                        } else {
                            code = 0xFFFD
                        }
                    } else if (0xDC00...0xDFFF).contains(code) {
                        code = 0xFFFD
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    index -= 1
                    throw fail("invalid escape")
                }
            default:
                if byte < 0x20 { throw fail("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = index
        var integral = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        // An integer of up to 18 digits (every size and count in practice) is read from its digits:
        // making a `String` of them and parsing that cost about 300 instructions a number.
        let negative = bytes[start] == UInt8(ascii: "-")
        let digits = index - start - (negative ? 1 : 0)
        if integral && digits <= 18 {
            var value = 0
            for offset in (index - digits)..<index { value = value * 10 + Int(bytes[offset] &- UInt8(ascii: "0")) }
            return .int(negative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw fail("invalid number") }
        return .double(value)
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
