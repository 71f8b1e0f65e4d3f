// Deferring an array member of a document's top-level object: its elements' byte ranges are found
// by a quick pass that only follows strings and brackets (`passValue`), and each element is parsed,
// with every check, when it is built. A caller builds one element at a time and uses the first
// before the last is built (a download's listing: the first file is requested while the page's
// other items are still to be read). Checking every element up front with `skipValue` cost a fifth
// of building them (callgrind, a page of 74 images); the quick pass costs a fraction of that.
// The rest of the document (the members around the array) is parsed and checked at once; a
// malformed element is refused when it is built, with the offset of the error in the document.

/// The elements of an array left unbuilt by `JSON.parse(_:skipping:deferring:)`, each built when
/// asked for (members named one of the parse's `skipping` left out, as `parse` leaves them out).
public struct JSONDeferredElements: Sendable {
    let bytes: [UInt8]
    /// Each element's bytes in the document, in order.
    public let ranges: [Range<Int>]
    let skipped: JSONMemberNames
    let maximumDepth: Int

    /// No elements.
    public init() {
        self.init(bytes: [], ranges: [], skipped: JSONMemberNames(), maximumDepth: JSON.defaultMaximumDepth)
    }

    init(bytes: [UInt8], ranges: [Range<Int>], skipped: JSONMemberNames, maximumDepth: Int) {
        self.bytes = bytes
        self.ranges = ranges
        self.skipped = skipped
        self.maximumDepth = maximumDepth
    }

    /// How many elements there are.
    public var count: Int { ranges.count }

    /// The element at `position` (0 ..< `count`), built (`read(_:_:)` reads one in place).
    public func element(_ position: Int) throws(JSONParseError) -> JSON {
        do {
            return try read(position) { reader throws(JSONParseError) in try reader.value() }
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(offset: ranges[position].lowerBound, message: "\(error)")
        }
    }
}

extension JSON {
    /// Parses a complete JSON text as `parse(_:maximumDepth:skipping:)` does, except that when its
    /// top level is an object whose member `name` is an array, that array's elements are only
    /// delimited: the member holds each one's position (`0`, `1`, ...) in its place, and the
    /// elements come back unbuilt (`JSONDeferredElements.element(_:)` builds and checks one). A
    /// document that `parse` refuses is refused here or when one of its elements is built.
    public static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, skipping: [String] = [], deferring name: String
    ) throws(JSONParseError) -> (JSON, JSONDeferredElements) {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
                parser.skipped = JSONMemberNames(skipping)
                parser.deferredKey = name
                let document = try parser.parseDocument()
                // A repeated member: the last one counts, as in `parse`.
                var ranges = parser.deferredRanges
                if document[name]?.arrayValue?.count != ranges.count { ranges = [] }
                let elements = JSONDeferredElements(
                    bytes: ranges.isEmpty ? [] : bytes, ranges: ranges, skipped: parser.skipped,
                    maximumDepth: maximumDepth)
                return (document, elements)
            }
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(offset: 0, message: "\(error)")
        }
    }
}

extension JSONParser {
    /// The array at `index` (a member of the top-level object), its elements delimited
    /// (`passValue`) and their ranges kept in `deferredRanges`; it stands as the array of their
    /// positions.
    mutating func deferArray() throws(JSONParseError) -> JSON {
        try enter()
        index += 1
        var ranges: [Range<Int>] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            deferredRanges = ranges
            return .array([])
        }
        while true {
            skipWhitespace()
            let start = index
            try passValue()
            ranges.append(start..<index)
            guard try continues(to: UInt8(ascii: "]")) else {
                deferredRanges = ranges
                return .array(ranges.indices.map { .int($0) })
            }
        }
    }

    /// Moves to the end of the value at `index` without checking it (`JSONDeferredElements.element`
    /// checks it): strings are passed from quote to quote (a backslash passes the byte after it),
    /// brackets and braces counted, and the value ends at a comma or a closing bracket outside them.
    mutating func passValue() throws(JSONParseError) {
        var nesting = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                try passString()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                nesting += 1
                index += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if nesting == 0 { return }
                nesting -= 1
                index += 1
            case UInt8(ascii: ","):
                if nesting == 0 { return }
                index += 1
            default:
                index += 1
            }
        }
    }

    /// Moves past the string opening at `index`, eight bytes at a time up to a quote, a backslash
    /// or a control byte (`specialBytes`), without checking its escapes or characters.
    private mutating func passString() throws(JSONParseError) {
        index += 1
        while index < bytes.count {
            passPlainBytes()
            guard index < bytes.count else { break }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 2
            default:
                index += 1
            }
        }
        throw fail("unterminated string")
    }
}
