import OCEQCore
import Testing

/// `JSON.parse(_:skipping:deferring:)`: an array member of the top-level object whose elements are
/// checked at once and built one at a time, each as `parse` would have built it.
@Suite("JSON parse with an array member deferred")
struct JSONDeferTests {
    static let page = Array(
        #"""
        {"hasMore":false,"items":[ {"id":"A","links":[{"href":"x"}],"n":1} ,{"id":"B","deep":[[{"links":2}]]},
          "text\u00e9", 3.5, [], {}, null ],"count":7,"links":[]}
        """#.utf8)

    @Test("each element built on its own equals the element parse builds; the member holds positions")
    func elementsMatchParse() throws {
        for skipping in [[], ["links"]] {
            let whole = try JSON.parse(Self.page, skipping: skipping)
            let (head, elements) = try JSON.parse(Self.page, skipping: skipping, deferring: "items")
            let expected = try #require(whole["items"]?.arrayValue)
            #expect(elements.count == expected.count)
            for position in expected.indices {
                #expect(try elements.element(position) == expected[position], "element \(position), \(skipping)")
            }
            #expect(head["items"] == .array((0..<7).map { .int($0) }))
            #expect(head["count"] == .int(7) && head["hasMore"] == .bool(false))
            #expect(head["links"] == whole["links"])
        }
    }

    @Test("a document parse refuses is refused, by the deferring parse or when one of its elements is built")
    func malformedRefused() throws {
        let documents = [
            #"{"items":[{"id":"A"},{"id":"B",}],"count":2}"#, #"{"items":[{"id":"A"},{"id":"B""#,
            #"{"items":[{"id":"A"},{"id":"\u12"}]}"#, #"{"items":[1,2,]}"#, #"{"items":[{"id":"A"}] x"#,
            #"{"items":[1 2]}"#, #"{"items":[{"a":[1}]]}"#, #"{"items":[,1]}"#, "{\"items\":[\"a\u{1}b\"]}",
            #"{"items":[tru]}"#, #"{"items":[1],"count":}"#,
        ]
        for text in documents {
            let bytes = Array(text.utf8)
            #expect(throws: JSONParseError.self, "\(text)") { _ = try JSON.parse(bytes) }
            #expect(throws: JSONParseError.self, "\(text)") {
                let (_, elements) = try JSON.parse(bytes, deferring: "items")
                for position in 0..<elements.count { _ = try elements.element(position) }
            }
        }
        // The elements before a malformed one are built as `parse` would build them.
        let (_, elements) = try JSON.parse(
            Array(#"{"items":[{"id":"A"} , [2], {"id":"B",}]}"#.utf8), deferring: "items")
        #expect(try elements.element(0) == .object(["id": .string("A")]))
        #expect(try elements.element(1) == .array([.int(2)]))
        #expect(throws: JSONParseError.self) { _ = try elements.element(2) }
    }

    @Test("only the top-level object's array member is deferred; other shapes parse as parse parses them")
    func otherShapes() throws {
        for text in [
            #"[{"items":[1]}]"#, #"{"items":"no"}"#, #"{"a":{"items":[1,2]}}"#, #"{"items":[1],"items":3}"#, "7",
        ] {
            let bytes = Array(text.utf8)
            let (head, elements) = try JSON.parse(bytes, deferring: "items")
            #expect(head == (try JSON.parse(bytes)), "\(text)")
            #expect(elements.count == 0, "\(text)")
        }
        // Repeated: the last array counts, as in `parse`.
        let (head, elements) = try JSON.parse(Array(#"{"items":[1],"items":[true,false]}"#.utf8), deferring: "items")
        #expect(head["items"] == .array([.int(0), .int(1)]))
        #expect(try elements.element(1) == .bool(false))
    }
}
