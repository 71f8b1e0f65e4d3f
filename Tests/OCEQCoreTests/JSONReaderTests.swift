import OCEQCore
import Testing

/// `JSONReader`: an element of a deferred array read in place, member by member. It must refuse what
/// `element(_:)` (hence `parse`) refuses, at the same offset, whatever the caller reads, and read
/// values as `parse` builds them.
@Suite("JSON read in place")
struct JSONReaderTests {
    /// The elements of `{"items":[...]}` around `elements`.
    static func elements(_ elements: String) throws -> JSONDeferredElements {
        try JSON.parse(Array(#"{"items":["#.utf8) + Array(elements.utf8) + Array("]}".utf8), deferring: "items").1
    }

    /// What `read` gives for element `position` when the reader reads `depth` levels deep (0: nothing,
    /// 1: each member's value left, 2: each member's value built): the value, or the error's offset.
    static func outcome(_ elements: JSONDeferredElements, _ position: Int, depth: Int) -> Result<JSON?, JSONParseError>
    {
        do {
            return .success(
                try elements.read(position) { reader -> JSON? in
                    guard depth > 0 else { return nil }
                    var members: [String: JSON] = [:]
                    let isObject = try reader.readObject { reader, name throws(JSONParseError) in
                        if depth > 1 { members[name.string] = try reader.value() }
                    }
                    return isObject ? .object(members) : nil
                })
        } catch let error as JSONParseError {
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .success(nil)
        }
    }

    @Test("an element is refused where element(_:) refuses it, whatever the reader reads")
    func refusedAtTheSameOffset() throws {
        let malformed = [
            #"{"id":"A",}"#, #"{"id":"\u12"}"#, #"{"a":[1}]}"#, "{\"id\":\"a\u{1}b\"}", #"{"a":tru}"#, #"{"a" 1}"#,
            #"{"a":1 "b":2}"#, #"{"a":{"b":[1,]}}"#, #"{"a":-}"#, #"{"a":01}"#, #"{"a":"x\q"}"#, #"{1:2}"#,
            #"{"a":[[[[]]]}"#,
        ]
        var checked = 0
        for text in malformed {
            // Unbalanced brackets are refused by the page's quick pass, before any element is read.
            guard let elements = try? Self.elements(text) else { continue }
            checked += 1
            var expected: JSONParseError?
            do { _ = try elements.element(0) } catch { expected = error }
            let refusal = try #require(expected, "element(_:) accepts \(text)")
            for depth in 0...2 {
                guard case .failure(let error) = Self.outcome(elements, 0, depth: depth) else {
                    Issue.record("read accepts \(text) at depth \(depth)")
                    continue
                }
                #expect(error == refusal, "\(text), depth \(depth)")
            }
        }
        #expect(checked >= 11)
    }

    @Test("members are read as parse builds them; repeated names come each time; escaped names match")
    func membersAsParsed() throws {
        let text =
            #"{"id":"A","n":-12,"big":123456789012345678901,"d":2.50,"arr":[1,{"x":null}],"i\u0064":"B","e":"\u00e9\n"}"#
        let elements = try Self.elements(text + "," + text)
        let whole = try elements.element(0)
        #expect(Self.outcome(elements, 1, depth: 2) == .success(whole))
        var ids: [String?] = []
        var numbers: [JSON] = []
        try elements.read(0) { reader in
            try reader.readObject { reader, name throws(JSONParseError) in
                switch name {
                case "id": ids.append(try reader.string())
                case "n", "big", "d": numbers.append(try reader.value())
                case "arr": ids.append(try reader.string())  // not a string: nil, and passed over
                default: break
                }
            }
        }
        #expect(ids == ["A", nil, "B"])
        let big = try #require(Double("123456789012345678901"))
        #expect(numbers == [.int(-12), .double(big), .double(2.5)])
        #expect(whole["big"] == .double(big))
    }

    @Test("readObject and readArray answer false for other kinds and pass them over")
    func otherKinds() throws {
        let elements = try Self.elements(#"[1,{"a":2},"s"],{"k":[true]},"text""#)
        var seen: [String] = []
        let arrayAsObject = try elements.read(0) { reader in
            try reader.readObject { _, _ throws(JSONParseError) in Issue.record("an array read as an object") }
        }
        let objectRead = try elements.read(1) { reader in
            try reader.readObject { reader, name throws(JSONParseError) in
                seen.append(name.string)
                let isArray = try reader.readArray { reader throws(JSONParseError) in _ = try reader.value() }
                #expect(isArray)
            }
        }
        let (stringAtObject, stringAsArray) = try elements.read(2) { reader in
            (reader.atObject(), try reader.readArray { _ throws(JSONParseError) in })
        }
        #expect(!arrayAsObject && objectRead && !stringAtObject && !stringAsArray)
        #expect(seen == ["k"])
    }

    @Test("nesting deeper than the limit is refused when read in place too")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let elements = try JSON.parse(Array(#"{"items":[\#(deep)]}"#.utf8), maximumDepth: 1000, deferring: "items").1
        let limited = try JSON.parse(Array(#"{"items":[\#(deep)]}"#.utf8), deferring: "items").1
        #expect(throws: JSONParseError.self) { try limited.read(0) { reader in try reader.skip() } }
        #expect(throws: Never.self) { _ = try elements.read(0) { reader in try reader.skip() } }
    }

    @Test("integers are read from their digits as Int(String) reads them, longer ones as before")
    func integers() throws {
        for text in ["0", "-0", "7", "-12", "999999999999999999", "-999999999999999999", "9223372036854775807"] {
            #expect(try JSON.parse(text) == .int(Int(text)!), "\(text)")
        }
        #expect(try JSON.parse("92233720368547758070") == .double(try #require(Double("92233720368547758070"))))
        #expect(try JSON.parse("1.0") == .double(1))
        #expect(try JSON.parse("1e2") == .double(100))
    }
}
