// Typed access to an item's user fields (Oracle's `customField<T>(_:)`), with clear errors where
// the SDK is lenient: a wrong element in `[Asset]` is an error, not silently dropped; a non-array
// is a wrong type, not an empty list; a double converts to Int only when it is integral.

import FoundationEssentials
import OCEQCore

/// Why a custom field could not be read as the requested type.
public enum CustomFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The item has no `fields` at all (a summary from a list without `fields=all`, or a reference stub).
    case incompleteAsset(id: String)
    /// The field does not exist; `available` lists the names that do.
    case missingField(name: String, id: String, available: [String])
    /// The field exists but holds another kind of value.
    case wrongType(name: String, id: String, expected: String, found: String)

    public var description: String {
        switch self {
        case .incompleteAsset(let id):
            return "\(id) has no fields (a summary); read it, or list with fields=all, to get its fields"
        case .missingField(let name, let id, let available):
            let names = available.sorted().joined(separator: ", ")
            return "\(id) has no field \"\(name)\"" + (available.isEmpty ? "" : " (its fields: \(names))")
        case .wrongType(let name, let id, let expected, let found):
            return "field \"\(name)\" of \(id): expected \(expected), found \(found)"
        }
    }
}

/// A type a custom field can be read as.
public protocol CustomFieldValue: Sendable {
    /// The name used in error messages (`String`, `[Asset]`).
    static var fieldTypeName: String { get }

    /// The value, or nil when `json` holds another kind of value.
    static func fromField(_ json: JSON) -> Self?

    /// What to say was found when `fromField` fails (arrays name the offending element).
    static func mismatchDescription(_ json: JSON) -> String
}

extension CustomFieldValue {
    public static func mismatchDescription(_ json: JSON) -> String { json.kindDescription }
}

extension Asset {
    /// The user field `name` as `T`: `String`, `Int`, `Double`, `Bool`, `Date`, `DeliveryDate`,
    /// `Asset`, `JSON`, arrays of those (`[Asset]`, `[String]`), `[String: JSON]`, or an optional
    /// of any of them (which reads `null` as nil).
    public func customField<T: CustomFieldValue>(_ name: String, as type: T.Type = T.self) throws(CustomFieldError) -> T
    {
        guard fields != nil else { throw .incompleteAsset(id: id) }
        let available = customFields
        guard let value = available[name] else {
            throw .missingField(name: name, id: id, available: Array(available.keys))
        }
        guard let typed = T.fromField(value) else {
            throw .wrongType(name: name, id: id, expected: T.fieldTypeName, found: T.mismatchDescription(value))
        }
        return typed
    }
}

extension String: CustomFieldValue {
    public static var fieldTypeName: String { "String" }
    public static func fromField(_ json: JSON) -> String? { json.stringValue }
}

extension Int: CustomFieldValue {
    public static var fieldTypeName: String { "Int" }
    public static func fromField(_ json: JSON) -> Int? {
        switch json {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int(d)
        default: return nil
        }
    }
}

extension Double: CustomFieldValue {
    public static var fieldTypeName: String { "Double" }
    public static func fromField(_ json: JSON) -> Double? { json.doubleValue }
}

extension Bool: CustomFieldValue {
    public static var fieldTypeName: String { "Bool" }
    public static func fromField(_ json: JSON) -> Bool? { json.boolValue }
}

extension Date: CustomFieldValue {
    public static var fieldTypeName: String { "Date" }
    public static func fromField(_ json: JSON) -> Date? { DeliveryDate(json: json)?.date }
}

extension DeliveryDate: CustomFieldValue {
    public static var fieldTypeName: String { "DeliveryDate" }
    public static func fromField(_ json: JSON) -> DeliveryDate? {
        guard let date = DeliveryDate(json: json), date.date != nil else { return nil }
        return date
    }
}

extension Asset: CustomFieldValue {
    public static var fieldTypeName: String { "Asset" }
    public static func fromField(_ json: JSON) -> Asset? { try? Asset(json: json) }
    public static func mismatchDescription(_ json: JSON) -> String {
        if case .object = json { return "an object without a string \"id\"" }
        return json.kindDescription
    }
}

extension JSON: CustomFieldValue {
    public static var fieldTypeName: String { "JSON" }
    public static func fromField(_ json: JSON) -> JSON? { json }
}

extension Array: CustomFieldValue where Element: CustomFieldValue {
    public static var fieldTypeName: String { "[\(Element.fieldTypeName)]" }
    public static func fromField(_ json: JSON) -> [Element]? {
        guard case .array(let elements) = json else { return nil }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard let typed = Element.fromField(element) else { return nil }
            result.append(typed)
        }
        return result
    }

    public static func mismatchDescription(_ json: JSON) -> String {
        guard case .array(let elements) = json else { return json.kindDescription }
        for (index, element) in elements.enumerated() where Element.fromField(element) == nil {
            return "an array whose element [\(index)] is \(Element.mismatchDescription(element))"
        }
        return json.kindDescription
    }
}

extension Dictionary: CustomFieldValue where Key == String, Value: CustomFieldValue {
    public static var fieldTypeName: String { "[String: \(Value.fieldTypeName)]" }
    public static func fromField(_ json: JSON) -> [String: Value]? {
        guard case .object(let members) = json else { return nil }
        var result: [String: Value] = [:]
        for (key, member) in members {
            guard let typed = Value.fromField(member) else { return nil }
            result[key] = typed
        }
        return result
    }
}

extension Optional: CustomFieldValue where Wrapped: CustomFieldValue {
    public static var fieldTypeName: String { "\(Wrapped.fieldTypeName) or null" }
    public static func fromField(_ json: JSON) -> Wrapped?? {
        if json.isNull { return .some(nil) }
        return Wrapped.fromField(json).map { .some($0) }
    }
}
