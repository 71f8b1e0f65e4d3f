// What kind of value a field holds. The delivery API does not serve a content
// type's field definitions, so the data type is inferred from the value: a string with markup,
// line breaks or more than 250 characters is `largetext`; an object with `value` and `timezone`
// is a `datetime`; an object with an `id` is a `reference`; other objects are `json`; arrays are
// `list of ...` (`reference list` for references); `null` is an empty field of unknown type.

import DeliveryKit

/// The data type of a field, inferred from its value.
indirect enum FieldKind: Equatable {
    case text, largetext, number, decimal, boolean, datetime, reference, json, empty
    case list(FieldKind?)

    /// The kind of `value`.
    init(_ value: JSON) {
        switch value {
        case .null: self = .empty
        case .bool: self = .boolean
        case .int: self = .number
        case .double: self = .decimal
        case .string(let text): self = FieldText.isLarge(text) ? .largetext : .text
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
    var name: String {
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
}
