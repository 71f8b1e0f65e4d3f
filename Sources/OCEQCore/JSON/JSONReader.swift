// Reading a JSON value where it lies, member by member, without building a tree: a caller asks for
// the members it needs (a string, a number, an object or array to read in turn) and every other
// value is passed over with the checks `parse` makes (`JSONParser.skipValue`), so a document is
// accepted or refused exactly as `parse` accepts or refuses it, at the same byte offset.
//
// Why: a download plans each item of its listing from a handful of values (id, name, type, the
// renditions' names and formats, a size). Building the item as a tree of dictionaries and strings
// first cost about 100,000 instructions an item, a fifth of the `download` command's user-space
// work for 74 images, and as much again to free it (callgrind). Read in place, an item costs the
// check of its bytes and the few strings kept.

/// A cursor over one JSON value in a document's bytes, valid inside the call that hands it out
/// (`JSONDeferredElements.read(_:_:)`). Each read consumes one value: `readObject` and
/// `readArray` consume theirs and hand each member or element to a closure, which may read it
/// with one call (`string`, `value`, `readObject`, ...) or leave it, and a value left is passed
/// over, checked.
public struct JSONReader {
    var parser: JSONParser
    /// The decoded names of members written with escapes, freed by `finish`.
    private var decodedNames: [UnsafeMutableBufferPointer<UInt8>] = []

    init(parser: JSONParser) {
        self.parser = parser
    }

    /// Frees what the reader allocated; the names it handed out are gone with it.
    mutating func finish() {
        for name in decodedNames { name.deallocate() }
        decodedNames = []
    }

    /// A member's name as its UTF-8 bytes (escapes decoded), compared without making a `String`;
    /// valid while its member is read.
    public struct Name {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>

        /// Whether the name is `text`.
        public func matches(_ text: StaticString) -> Bool {
            guard bytes.count == text.utf8CodeUnitCount else { return false }
            let pattern = text.utf8Start
            for index in 0..<bytes.count where bytes[index] != pattern[index] { return false }
            return true
        }

        /// The name, as a `String`.
        public var string: String { String(decoding: bytes, as: UTF8.self) }

        /// `case "id":` in a `switch` over a name.
        public static func ~= (pattern: StaticString, name: Name) -> Bool { name.matches(pattern) }
    }

    /// Reads the object at the cursor: `member` is called with each member's name, the cursor on
    /// its value, in the order written (a repeated name each time). False, with the value passed
    /// over, when it is not an object.
    @discardableResult
    public mutating func readObject(
        _ member: (inout JSONReader, Name) throws(JSONParseError) -> Void
    ) throws(JSONParseError) -> Bool {
        switch try enter(UInt8(ascii: "{"), closing: UInt8(ascii: "}")) {
        case .other: return false
        case .empty: return true
        case .entered: break
        }
        while true {
            parser.skipWhitespace()
            guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
                throw parser.fail("expected a member name")
            }
            let name = try memberName()
            parser.skipWhitespace()
            guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":") else {
                throw parser.fail("expected ':'")
            }
            parser.index += 1
            parser.skipWhitespace()
            let start = parser.index
            try member(&self, name)
            if parser.index == start { try parser.skipValue() }
            guard try parser.continues(to: UInt8(ascii: "}")) else { return true }
        }
    }

    /// Reads the array at the cursor: `element` is called with the cursor on each element in turn.
    /// False, with the value passed over, when it is not an array.
    @discardableResult
    public mutating func readArray(
        _ element: (inout JSONReader) throws(JSONParseError) -> Void
    ) throws(JSONParseError) -> Bool {
        switch try enter(UInt8(ascii: "["), closing: UInt8(ascii: "]")) {
        case .other: return false
        case .empty: return true
        case .entered: break
        }
        while true {
            parser.skipWhitespace()
            let start = parser.index
            try element(&self)
            if parser.index == start { try parser.skipValue() }
            guard try parser.continues(to: UInt8(ascii: "]")) else { return true }
        }
    }

    /// What `enter(_:closing:)` found at the cursor.
    private enum Entry {
        /// Another kind of value, passed over.
        case other
        /// The container, empty, passed over.
        case empty
        /// The container, entered: the cursor is on its first element or member.
        case entered
    }

    /// Enters the container that opens with `open` at the cursor (or passes over another value, or
    /// an empty container), counting its depth as parsing does.
    private mutating func enter(_ open: UInt8, closing close: UInt8) throws(JSONParseError) -> Entry {
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == open else {
            try parser.skipValue()
            return .other
        }
        try parser.enter()
        parser.index += 1
        parser.skipWhitespace()
        if parser.index < parser.bytes.count, parser.bytes[parser.index] == close {
            parser.index += 1
            parser.depth -= 1
            return .empty
        }
        return .entered
    }

    /// Whether the value at the cursor is an object (nothing is consumed).
    public mutating func atObject() -> Bool {
        parser.skipWhitespace()
        return parser.index < parser.bytes.count && parser.bytes[parser.index] == UInt8(ascii: "{")
    }

    /// The string at the cursor, or nil (the value passed over) when it is something else.
    public mutating func string() throws(JSONParseError) -> String? {
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
            try parser.skipValue()
            return nil
        }
        return try parser.parseString()
    }

    /// The value at the cursor, built as `JSON.parse` builds it (members the document's parse skips
    /// left out).
    public mutating func value() throws(JSONParseError) -> JSON {
        parser.skipWhitespace()
        return try parser.parseValue()
    }

    /// Passes over the value at the cursor, checked.
    public mutating func skip() throws(JSONParseError) {
        parser.skipWhitespace()
        try parser.skipValue()
    }

    /// The member name at the cursor (its opening quote), as its bytes in the document when it has
    /// no escape (every name in practice: passed eight bytes at a time), else decoded.
    private mutating func memberName() throws(JSONParseError) -> Name {
        let bytes = parser.bytes
        let opening = parser.index
        parser.index += 1
        let start = parser.index
        parser.passPlainBytes()
        while parser.index < bytes.count {
            let byte = bytes[parser.index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            parser.index += 1
        }
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else {
            // Escapes (or an error, which `parseString` reports where it is).
            parser.index = opening
            let decoded = Array(try parser.parseString().utf8)
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: decoded.count)
            _ = copy.initialize(from: decoded)
            decodedNames.append(copy)
            return Name(bytes: UnsafeBufferPointer(copy))
        }
        let end = parser.index
        parser.index += 1
        return Name(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
}

extension JSONDeferredElements {
    /// Reads the element at `position` (0 ..< `count`) in place with `body`, which may read it
    /// whole or in part (what it leaves is passed over, checked): the element is refused, with
    /// the offset in the document, exactly where `element(_:)` would refuse it. `body`'s own
    /// errors are thrown as they are.
    @discardableResult
    public func read<T>(_ position: Int, _ body: (inout JSONReader) throws -> T) throws -> T {
        let range = ranges[position]
        return try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            parser.skipped = skipped
            parser.index = range.lowerBound
            // An element of an array member of the top-level object.
            parser.depth = 2
            var reader = JSONReader(parser: parser)
            defer { reader.finish() }
            let start = reader.parser.index
            let value = try body(&reader)
            if reader.parser.index == start { try reader.parser.skipValue() }
            reader.parser.skipWhitespace()
            if reader.parser.index != range.upperBound { throw reader.parser.fail("expected ',' or ']'") }
            return value
        }
    }
}
