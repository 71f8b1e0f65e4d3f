// Deferring an array member of a document's top-level object: its elements are skipped (checked
// exactly as parsing them would check them, `skipValue`) and their byte ranges kept, so that a
// caller can build one element at a time and use the first before the last is built (a
// download's listing: the first file is requested while the page's other items are still to be
// read). Building every element after the check costs the check once more than `parse` (skipping
// is the cheap part: callgrind, a page of 74 images, about a fifth of parsing it).

/// The elements of an array left unbuilt by `JSON.parse(_:skipping:deferring:)`, each built when
/// asked for (members named one of the parse's `skipping` left out, as `parse` leaves them out).
public struct JSONDeferredElements: Sendable {
    let bytes: [UInt8]
    /// Each element's bytes in the document, in order.
    public let ranges: [Range<Int>]
    let skipping: [String]
    let maximumDepth: Int

    /// No elements.
    public init() {
        self.init(bytes: [], ranges: [], skipping: [], maximumDepth: JSON.defaultMaximumDepth)
    }

    init(bytes: [UInt8], ranges: [Range<Int>], skipping: [String], maximumDepth: Int) {
        self.bytes = bytes
        self.ranges = ranges
        self.skipping = skipping
        self.maximumDepth = maximumDepth
    }

    /// How many elements there are.
    public var count: Int { ranges.count }

    /// The element at `position` (0 ..< `count`), built.
    public func element(_ position: Int) throws(JSONParseError) -> JSON {
        let range = ranges[position]
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
                parser.skippedKeys = skipping
                parser.index = range.lowerBound
                // An element of an array member of the top-level object.
                parser.depth = 2
                let value = try parser.parseValue()
                if parser.index != range.upperBound { throw parser.fail("unexpected data after the value") }
                return value
            }
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(offset: range.lowerBound, message: "\(error)")
        }
    }
}

extension JSON {
    /// Parses a complete JSON text as `parse(_:maximumDepth:skipping:)` does, except that when its
    /// top level is an object whose member `name` is an array, that array's elements are checked
    /// but not built: the member holds each one's position (`0`, `1`, ...) in its place, and the
    /// elements come back unbuilt (`JSONDeferredElements.element(_:)` builds one). A document is
    /// accepted or refused exactly as by `parse`.
    public static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, skipping: [String] = [], deferring name: String
    ) throws(JSONParseError) -> (JSON, JSONDeferredElements) {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
                parser.skippedKeys = skipping
                parser.deferredKey = name
                let document = try parser.parseDocument()
                // A repeated member: the last one counts, as in `parse`.
                var ranges = parser.deferredRanges
                if document[name]?.arrayValue?.count != ranges.count { ranges = [] }
                let elements = JSONDeferredElements(
                    bytes: ranges.isEmpty ? [] : bytes, ranges: ranges, skipping: skipping,
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
    /// The array at `index` (a member of the top-level object), its elements checked and their
    /// ranges kept in `deferredRanges`; it stands as the array of their positions.
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
            try skipValue()
            ranges.append(start..<index)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                deferredRanges = ranges
                return .array(ranges.indices.map { .int($0) })
            }
            throw fail("expected ',' or ']'")
        }
    }
}
