// The members of a JSON object text with the bytes of each value, unbuilt: a value that is passed
// on as it was written (`oceq serve` writes an item's stored fields into a page this way instead
// of building each value and writing it again: a fields=ALL page of 100 items spent a third of its
// time there; perf) is copied, and only the members that change are built.

extension JSON {
    /// The members of the object `bytes` holds, in the order written (a repeated name appears each
    /// time), each with the byte range of its value in `bytes`. Every value is checked as `parse`
    /// checks it; throws when `bytes` is not exactly one object.
    public static func memberRanges(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = defaultMaximumDepth
    ) throws(JSONParseError) -> [(name: String, value: Range<Int>)] {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
            throw parser.fail("expected an object")
        }
        try parser.enter()
        parser.index += 1
        var members: [(name: String, value: Range<Int>)] = []
        parser.skipWhitespace()
        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "}") {
            parser.index += 1
        } else {
            while true {
                parser.skipWhitespace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else {
                    throw parser.fail("expected a member name")
                }
                let name = try parser.parseString()
                parser.skipWhitespace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: ":") else {
                    throw parser.fail("expected ':'")
                }
                parser.index += 1
                parser.skipWhitespace()
                let start = parser.index
                try parser.skipValue()
                members.append((name, start..<parser.index))
                guard try parser.continues(to: UInt8(ascii: "}")) else { break }
            }
        }
        parser.skipWhitespace()
        if parser.index != bytes.count { throw parser.fail("unexpected data after the value") }
        return members
    }
}
