/// JSON that parsed but does not have the shape a model needs.
import OCEQCore

public struct ShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document, like `items[3].fields.renditions`; empty for the root.
    public var path: String
    /// What was expected, like `an object with a string "id"`.
    public var expected: String
    /// What was there, like `number 3` or `missing`.
    public var found: String

    public init(path: String, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    public init(path: String, expected: String, found value: JSON?) {
        self.init(path: path, expected: expected, found: value?.kindDescription ?? "nothing")
    }

    public var description: String {
        (path.isEmpty ? "" : "at \(path): ") + "expected \(expected), found \(found)"
    }
}

extension JSON {
    /// A short description of the value's kind for messages: `string "abc"`, `number 2112`,
    /// `object`, `array of 3`, `null`, `true`.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return "number \(i)"
        case .double(let d): return "number \(d)"
        case .string(let s): return "string \"\(s.singleLine.truncated(to: 40))\""
        case .array(let a): return "array of \(a.count)"
        case .object(let o): return o.isEmpty ? "empty object" : "object"
        }
    }
}

/// Reads optional members of a JSON object leniently: a member of the wrong kind reads as absent.
///
/// The models read through this rather than `Decodable` (issue 15, point 7): they keep the whole
/// object (`raw`) beside the typed members, read a member of the wrong kind as absent instead of
/// failing, and report `ShapeError`s with a path that tests pin. `Decodable` would need either
/// `JSONDecoder` over the bytes again (20 to 55 times the parse time, Scripts/bench-json) or a
/// `Decoder` over `JSON` written here, and an `init(from:)` per model no shorter than these.
struct JSONObjectReader {
    let members: [String: JSON]
    let path: String

    init(_ json: JSON, path: String, expected: String) throws(ShapeError) {
        guard case .object(let members) = json else { throw ShapeError(path: path, expected: expected, found: json) }
        self.members = members
        self.path = path
    }

    func child(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func string(_ key: String) -> String? { members[key]?.stringValue }

    func bool(_ key: String) -> Bool? { members[key]?.boolValue }

    func int(_ key: String) -> Int? { members[key]?.intValue }

    func object(_ key: String) -> [String: JSON]? { members[key]?.objectValue }

    func requiredString(_ key: String) throws(ShapeError) -> String {
        guard let value = members[key]?.stringValue else {
            throw ShapeError(
                path: path, expected: "an object with a string \"\(key)\"",
                found: members[key].map { "\"\(key)\": \($0.kindDescription)" } ?? "no \"\(key)\"")
        }
        return value
    }

    func date(_ key: String) -> DeliveryDate? { members[key].flatMap(DeliveryDate.init(json:)) }

    func links(_ key: String = "links") -> [Link] { Link.list(members[key]) }

    func stringMap(_ key: String) -> [String: String] {
        guard let object = members[key]?.objectValue else { return [:] }
        var map: [String: String] = [:]
        for (name, value) in object {
            switch value {
            case .string(let s): map[name] = s
            case .int, .double, .bool: map[name] = JSONWriter().string(value)
            default: continue
            }
        }
        return map
    }

    /// Decodes an array member element by element; absent or non-array reads as empty.
    func array<T>(_ key: String, _ decode: (JSON, String) throws(ShapeError) -> T) throws(ShapeError) -> [T] {
        guard case .array(let elements)? = members[key] else { return [] }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try decode(element, "\(child(key))[\(index)]"))
        }
        return result
    }
}
