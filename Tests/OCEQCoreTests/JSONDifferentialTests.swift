// The hand-written parser (`JSON.parse`) beside Foundation's `JSONSerialization` on every JSON
// file the repository holds: test fixtures, the sample export, the fuzz corpus, and the recorded OCM
// responses of ../shared/fixtures when that folder is there. Both must agree on every file: the same
// value (numbers compared as numbers), or both refuse it. Where they knowingly differ, the second
// suite pins the difference: those are the reasons the hand-written parser stays (see the note at
// the top of JSONParser.swift).

import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("JSON parser beside JSONSerialization")
struct JSONDifferentialTests {
    /// Every file of the repository's corpus that is not an image, archive or note: JSON or not, a
    /// file both parsers refuse is fine.
    static let files: [String] = {
        let skipped: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "zip", "md", "MF", "keep", "bin", "py"]
        return RepositoryCorpus.files { !skipped.contains(($0 as NSString).pathExtension) }
    }()

    @Test("the repository's JSON files are all found (the comparison below is not vacuous)")
    func corpusIsThere() {
        #expect(Self.files.count >= 300)
        #expect(Self.files.contains { $0.hasPrefix("Samples/") && $0.hasSuffix(".json") })
        #expect(Self.files.contains { $0.hasPrefix("Tests/Fuzz/Corpus/item/") })
        #expect(Self.files.contains { $0.hasPrefix("Tests/DeliveryKitTests/Fixtures/") })
    }

    @Test("both parsers read the same value from every file, or both refuse it", arguments: files)
    func sameValue(file: String) throws {
        let data = try #require(FileManager.default.contents(atPath: OceqBinary.repositoryRoot.path + "/" + file))
        let handWritten = try? JSON.parse([UInt8](data))
        let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
            .map(JSON.init(foundation:))
        switch (handWritten, foundation) {
        case (nil, nil): break
        case (let value?, let other?): #expect(value.sameValue(as: other), "the parsers disagree on \(file)")
        case (nil, _?): Issue.record("only JSONSerialization accepts \(file)")
        case (_?, nil): Issue.record("only JSON.parse accepts \(file)")
        }
    }
}

@Suite("JSON parser skipping a member")
struct JSONSkippingTests {
    /// `value` with every member named `key` removed, at any depth.
    static func removing(_ key: String, from value: JSON) -> JSON {
        switch value {
        case .object(let members):
            return .object(members.filter { $0.key != key }.mapValues { removing(key, from: $0) })
        case .array(let elements): return .array(elements.map { removing(key, from: $0) })
        default: return value
        }
    }

    @Test(
        "skipping links reads every file as parsing it whole and removing links, or refuses it the same way",
        arguments: JSONDifferentialTests.files)
    func sameAsRemoving(file: String) throws {
        let data = try #require(FileManager.default.contents(atPath: OceqBinary.repositoryRoot.path + "/" + file))
        let bytes = [UInt8](data)
        let whole = Result { () throws(JSONParseError) in try JSON.parse(bytes) }
        let skipped = Result { () throws(JSONParseError) in try JSON.parse(bytes, skipping: ["links"]) }
        switch (whole, skipped) {
        case (.success(let value), .success(let lean)): #expect(lean == Self.removing("links", from: value), "\(file)")
        case (.failure, .failure): break
        default: Issue.record("one parse of \(file) failed: \(whole) / \(skipped)")
        }
    }

    @Test(
        "a skipped member is checked as JSON: what parsing refuses, skipping refuses at the same byte",
        arguments: [
            #"{"links":[1,]}"#, #"{"links":{"a":1,}}"#, #"{"links":"a\x"}"#, #"{"links":"\u12G4"}"#,
            "{\"links\":\"a\u{01}\"}", #"{"links":[1 2]}"#, #"{"links":{"a" 1}}"#, #"{"links":{1:2}}"#,
            #"{"links":tru}"#, #"{"links":-}"#, #"{"links":01}"#, #"{"links":[}"#, #"{"links":"abc"#,
            #"{"links":[[[[1]]]]}"#, #"{"links":"\"\\\/\b\f\n\r\t\ud83d\ude00"}"#, #"{"links":{}}"#,
        ])
    func malformed(text: String) {
        let whole = Result { () throws(JSONParseError) in try JSON.parse(text) }
        let skipped = Result { () throws(JSONParseError) in try JSON.parse(Array(text.utf8), skipping: ["links"]) }
        switch (whole, skipped) {
        case (.failure(let error), .failure(let other)): #expect(error == other)
        case (.success, .success(let lean)): #expect(lean == [:])
        default: Issue.record("\(text): \(whole) / \(skipped)")
        }
    }

    @Test(
        "a skipped string ends, escapes or is refused at the same byte wherever its quote, backslash or control character falls",
        arguments: ["\"", #"\""#, #"\\"#, #"\u0041"#, #"\x"#, "\u{01}", "\u{1F}", "é", "\u{7F}", " "])
    func specialAtEveryOffset(special: String) {
        for length in 0..<20 {
            for position in 0...length {
                let text =
                    String(repeating: "a", count: position) + special
                    + String(repeating: "b", count: length - position)
                let document = #"{"links":""# + text + #"","keep":[1]}"#
                let whole = Result { () throws(JSONParseError) in try JSON.parse(document) }
                let skipped = Result { () throws(JSONParseError) in
                    try JSON.parse(Array(document.utf8), skipping: ["links"])
                }
                switch (whole, skipped) {
                case (.failure(let error), .failure(let other)): #expect(error == other, "\(document)")
                case (.success, .success(let lean)): #expect(lean == ["keep": [1]], "\(document)")
                default: Issue.record("\(document): \(whole) / \(skipped)")
                }
            }
        }
    }

    @Test(
        "a member name is skipped by its value, however it is spelt, and a malformed name is refused at the same byte",
        arguments: [
            (#"{"li\u006eks":[1],"keep":2}"#, ["keep": 2]),
            (#"{"linkz":[1],"links":3,"keep":2}"#, ["linkz": [1], "keep": 2]),
            (#"{"link":1,"linksx":2,"Links":3}"#, ["link": 1, "linksx": 2, "Links": 3]),
            (#"{"lin\"ks":1,"links":2}"#, ["lin\"ks": 1]),
            (#"{"":1,"links":2}"#, ["": 1]),
            (#"{"links"#, nil), (#"{"li\xnks":1}"#, nil), ("{\"li\u{01}nks\":1}", nil), (#"{"links" 1}"#, nil),
        ] as [(String, JSON?)])
    func memberNames(text: String, expected: JSON?) {
        let whole = Result { () throws(JSONParseError) in try JSON.parse(text) }
        let skipped = Result { () throws(JSONParseError) in
            try JSON.parse(Array(text.utf8), skipping: ["links", "other"])
        }
        switch (whole, skipped) {
        case (.failure(let error), .failure(let other)):
            #expect(error == other, "\(text)")
            #expect(expected == nil, "\(text)")
        case (.success, .success(let lean)): #expect(lean == expected, "\(text)")
        default: Issue.record("\(text): \(whole) / \(skipped)")
        }
    }

    @Test("names of every length are skipped by their bytes: long names share a length class, not a match")
    func longNames() throws {
        let long = String(repeating: "n", count: 70)
        let edge = String(repeating: "e", count: 63)
        let skipping = [long, edge, "a"]
        var members: [String: JSON] = [:]
        var text = "{"
        for (index, name) in [
            long, edge, "a", String(repeating: "n", count: 64), String(repeating: "n", count: 71),
            String(repeating: "e", count: 62), String(repeating: "n", count: 69) + "m", "b", "",
        ].enumerated() {
            text += (index == 0 ? "" : ",") + "\"\(name)\":\(index)"
            if !skipping.contains(name) { members[name] = .int(index) }
        }
        text += "}"
        #expect(try JSON.parse(Array(text.utf8), skipping: skipping) == .object(members))
        #expect(try JSON.parse(Array(text.utf8)).objectValue?.count == 9)
    }

    @Test("depth is counted inside a skipped member")
    func depth() {
        let deep = #"{"links":"# + String(repeating: "[", count: 10) + String(repeating: "]", count: 10) + "}"
        #expect(throws: JSONParseError.self) { try JSON.parse(Array(deep.utf8), maximumDepth: 5, skipping: ["links"]) }
        #expect((try? JSON.parse(Array(deep.utf8), maximumDepth: 11, skipping: ["links"])) == [:])
    }
}

@Suite("Where JSON.parse knowingly differs from JSONSerialization")
struct JSONKnownDifferenceTests {
    /// Input bytes, what `JSON.parse` makes of them (nil: refused), and why.
    static let differences: [(bytes: [UInt8], expected: JSON?, reason: String)] = [
        (Array("[1,]".utf8), nil, "a trailing comma is not JSON (RFC 8259); JSONSerialization accepts it"),
        (Array("{\"a\":1,}".utf8), nil, "a trailing comma in an object is not JSON either"),
        (
            Array(#""\ud83dx""#.utf8), .string("\u{FFFD}x"),
            "a lone surrogate escape becomes U+FFFD; JSONSerialization refuses the whole document"
        ),
        (
            [0x22, 0x61, 0xFF, 0x22], .string("a\u{FFFD}"),
            "invalid UTF-8 in a string becomes U+FFFD; JSONSerialization refuses the whole file"
        ),
    ]

    @Test("JSON.parse keeps its documented reading", arguments: differences.indices)
    func handWritten(index: Int) {
        let difference = Self.differences[index]
        #expect((try? JSON.parse(difference.bytes)) == difference.expected, "\(difference.reason)")
    }

    @Test("JSONSerialization still reads these differently (else reconsider switching)", arguments: differences.indices)
    func foundation(index: Int) {
        let difference = Self.differences[index]
        let foundation = (try? JSONSerialization.jsonObject(with: Data(difference.bytes), options: [.fragmentsAllowed]))
            .map(JSON.init(foundation:))
        #expect(foundation != difference.expected, "\(difference.reason)")
    }

    @Test("only JSON.parse gives the byte offset of an error; JSONSerialization's is a message")
    func errorOffset() {
        #expect(throws: JSONParseError(at: 4, "unexpected character")) {
            try JSON.parse("[1, ?]")
        }
        #expect(throws: (any Error).self) {
            try JSONSerialization.jsonObject(with: Data("[1, ?]".utf8))
        }
    }
}

extension JSON {
    /// The value `JSONSerialization` returned, as a `JSON`: NSNumber's type tells a boolean (`c`)
    /// and a double (`d`, `f`) from an integer; an unsigned integer above `Int.max` becomes a double,
    /// as `JSON.parse` reads it.
    init(foundation any: Any) {
        switch any {
        case is NSNull: self = .null
        case let string as String: self = .string(string)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            case "Q" where number.uint64Value > UInt64(Int.max): self = .double(number.doubleValue)
            default: self = .int(number.intValue)
            }
        case let array as [Any]: self = .array(array.map(JSON.init(foundation:)))
        case let object as [String: Any]: self = .object(object.mapValues(JSON.init(foundation:)))
        default: self = .string("unexpected \(type(of: any))")
        }
    }

    /// Equal, with numbers compared as numbers (`1` and `1.0` are the same value).
    func sameValue(as other: JSON) -> Bool {
        switch (self, other) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return doubleValue == other.doubleValue
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.sameValue(as: $0) } ?? false }
        default:
            return self == other
        }
    }
}
