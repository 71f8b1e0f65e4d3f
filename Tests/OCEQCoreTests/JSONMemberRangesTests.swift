import OCEQCore
import Testing

/// `JSON.memberRanges`: an object's members with the bytes of each value, and
/// `JSONWriter.write(object:written:into:)`, which writes such bytes back in place.
@Suite("JSON member ranges and objects with written members")
struct JSONMemberRangesTests {
    static let text = Array(
        #"""
         { "a" : [1, {"x": "y"}], "b\u00e9\n":"s\"t" ,"c":{"value":"2021-01-01"},"d":-1.5e3, "e":null,"a":true }
        """#.utf8)

    @Test("each member's bytes parse to the value parse builds, in the order written, repeats kept")
    func ranges() throws {
        let members = try Self.text.withUnsafeBufferPointer { try JSON.memberRanges($0) }
        #expect(members.map(\.name) == ["a", "b\u{e9}\n", "c", "d", "e", "a"])
        let values = try members.map { try JSON.parse(Self.text[$0.value]) }
        #expect(values[0] == .array([.int(1), .object(["x": .string("y")])]))
        #expect(values[1] == .string("s\"t") && values[3] == .double(-1500) && values[4] == .null)
        #expect(values[5] == .bool(true))
        #expect(String(decoding: Self.text[members[2].value], as: UTF8.self) == #"{"value":"2021-01-01"}"#)
        #expect(try Array("{}".utf8).withUnsafeBufferPointer { try JSON.memberRanges($0) }.isEmpty)
    }

    @Test(
        "a text that is not one valid object is refused where parse refuses it",
        arguments: [
            "", "[1]", "{", #"{"a":}"#, #"{"a":1,}"#, #"{"a":1} x"#, #"{"a":[1}"#, #"{a:1}"#, "{\"a\":\"\u{1}\"}",
        ])
    func refused(text: String) {
        let bytes = Array(text.utf8)
        #expect(throws: JSONParseError.self) { try bytes.withUnsafeBufferPointer { try JSON.memberRanges($0) } }
        #expect((try? JSON.parse(bytes))?.objectValue == nil)
    }

    @Test("an object written with written members is the object written whole")
    func writtenMembers() throws {
        let whole: [String: JSON] = [
            "b": .array([.int(1), .string("é\u{1}")]), "a": .object(["z": .null, "y": .double(0.5)]), "c": .bool(false),
            "links": .array([.object(["href": .string("h")])]), "é": .int(3),
        ]
        for writer in [JSONWriter(), JSONWriter(indent: 2), JSONWriter(emptying: "links")] {
            let expected = writer.bytes(.object(whole))
            for name in whole.keys {
                var rest = whole
                rest[name] = nil
                // The written member's text as this writer writes it at the same depth.
                let text = writer.bytes(.object([name: whole[name]!]))
                let member = try text.withUnsafeBufferPointer { try JSON.memberRanges($0) }[0]
                var out: [UInt8] = []
                writer.write(object: rest, written: [name: Array(text[member.value])], into: &out)
                if writer.indent == nil { #expect(out == expected, "\(name)") }
                #expect(try JSON.parse(out) == JSON.parse(expected))
            }
            var empty: [UInt8] = []
            writer.write(object: [:], written: [:], into: &empty)
            #expect(empty == Array("{}".utf8))
        }
    }
}
