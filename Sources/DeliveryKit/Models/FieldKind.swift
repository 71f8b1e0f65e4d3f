// What kind of value a field holds. The delivery API does not serve a content type's field
// definitions, so `fields` (AssetModule) shows and `mirror` writes a data type inferred from the
// value: a string with markup, line breaks or more than 250 characters is `largetext`; an object
// with `value` and `timezone` is a `datetime`; an object with an `id` is a `reference`; other
// objects are `json`; arrays are `list of ...` (`reference list` for references); `null` is an
// empty field of unknown type.
import OCEQCore

/// The data type of a field, inferred from its value.
public indirect enum FieldKind: Sendable, Equatable {
    /// The kinds; `empty` is a null value, `list(nil)` an empty array.
    case text, largetext, number, decimal, boolean, datetime, reference, json, empty
    case list(FieldKind?)

    /// The kind of `value`.
    public init(_ value: JSON) {
        switch value {
        case .null: self = .empty
        case .bool: self = .boolean
        case .int: self = .number
        case .double: self = .decimal
        case .string(let text): self = FieldKind.isLargeText(text) ? .largetext : .text
        case .object(let members):
            if members["value"]?.stringValue != nil && members["timezone"] != nil {
                self = .datetime
            } else if members["id"]?.stringValue != nil {
                self = .reference
            } else {
                self = .json
            }
        case .array(let elements):
            let kinds = elements.map(FieldKind.init)
            guard let first = kinds.first else {
                self = .list(nil)
                return
            }
            if kinds.allSatisfy({ $0 == first }) {
                self = .list(first)
            } else if kinds.allSatisfy({ $0 == .text || $0 == .largetext }) {
                self = .list(.largetext)
            } else {
                self = .json
            }
        }
    }

    /// `text`, `reference list`, `list of number`, ...
    public var name: String {
        switch self {
        case .text: return "text"
        case .largetext: return "largetext"
        case .number: return "number"
        case .decimal: return "decimal"
        case .boolean: return "boolean"
        case .datetime: return "datetime"
        case .reference: return "reference"
        case .json: return "json"
        case .empty: return "empty (null)"
        case .list(.reference?): return "reference list"
        case .list(let element?): return "list of \(element.name)"
        case .list(nil): return "list (empty)"
        }
    }

    /// Markup, line breaks or more than 250 characters.
    public static func isLargeText(_ text: String) -> Bool {
        text.count > 250 || text.contains("\n") || looksLikeHTML(text)
    }

    /// Whether `text` holds a tag such as `<p>`, `</a>` or `<!DOCTYPE html>` (`</?[A-Za-z!][^<>]*>`).
    public static func looksLikeHTML(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            var cursor = index + 1
            if cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/") { cursor += 1 }
            guard cursor < bytes.count else { return false }
            let first = bytes[cursor]
            let isLetter = (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A) || first == 0x21
            guard isLetter else {
                index += 1
                continue
            }
            cursor += 1
            while cursor < bytes.count && bytes[cursor] != UInt8(ascii: "<") && bytes[cursor] != UInt8(ascii: ">") {
                cursor += 1
            }
            if cursor < bytes.count && bytes[cursor] == UInt8(ascii: ">") { return true }
            index = cursor
        }
        return false
    }
}
