import OCEQCore
import Testing

@Suite("JSON parse and write")
struct JSONTests {
    @Test("round-trips every kind of value with sorted keys")
    func roundTrip() throws {
        let text = #"{"b":[1,2.5,true,false,null],"a":"x\ny\u0001\"","c":{"d":-3}}"#
        let value = try JSON.parse(text)
        #expect(value["b"]?[1] == .double(2.5))
        #expect(value["a"]?.stringValue == "x\ny\u{1}\"")
        #expect(JSONWriter().string(value) == #"{"a":"x\ny\u0001\"","b":[1,2.5,true,false,null],"c":{"d":-3}}"#)
    }

    @Test(
        "integral numbers are ints, others doubles",
        arguments: [("3", JSON.int(3)), ("3.0", .double(3)), ("1e3", .double(1000)), ("-0.5", .double(-0.5))])
    func numbers(text: String, expected: JSON) throws {
        #expect(try JSON.parse(text) == expected)
    }

    @Test("surrogate pairs decode and lone surrogates become U+FFFD")
    func surrogates() throws {
        #expect(try JSON.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSON.parse(#""\ud83dx""#) == .string("\u{FFFD}x"))
    }

    @Test(
        "malformed input reports the byte offset",
        arguments: [("{\"a\" 1}", 5), ("[1,]", 3), ("tru", 0), ("\"abc", 4), ("[1] x", 4), ("01", 1)])
    func errors(text: String, offset: Int) {
        #expect(throws: JSONParseError.self) { try JSON.parse(text) }
        do {
            _ = try JSON.parse(text)
        } catch {
            #expect(error.offset == offset)
        }
    }

    @Test("nesting beyond the limit is refused, not a stack overflow")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSON.parse(deep) }
        #expect((try? JSON.parse(String(repeating: "[", count: 10) + String(repeating: "]", count: 10))) != nil)
    }

    @Test("pretty output indents and stays parseable")
    func pretty() throws {
        let value: JSON = ["k": [1, "two"], "e": [:]]
        let text = JSONWriter(indent: 2).string(value)
        #expect(text == "{\n  \"e\": {},\n  \"k\": [\n    1,\n    \"two\"\n  ]\n}")
        #expect(try JSON.parse(text) == value)
    }

    @Test("an emptied member name writes its arrays as [], at any depth, and nothing else changes")
    func emptying() throws {
        let value: JSON = [
            "links": [["href": "a"]], "name": "x",
            "items": [["links": [1, 2], "fields": ["links": "not an array", "renditions": [["links": [3]]]]]],
            "other": ["links": [:]],
        ]
        let expected: JSON = [
            "links": [], "name": "x",
            "items": [["links": [], "fields": ["links": "not an array", "renditions": [["links": []]]]]],
            "other": ["links": [:]],
        ]
        for indent in [nil, 2] {
            let written = JSONWriter(indent: indent, emptying: "links").bytes(value)
            #expect(try JSON.parse(written) == expected)
            #expect(written == JSONWriter(indent: indent).bytes(expected))
        }
        #expect(try JSON.parse(JSONWriter().bytes(value)) == value)
    }
}
