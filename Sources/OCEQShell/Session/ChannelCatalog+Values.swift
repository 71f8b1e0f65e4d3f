// What Tab offers beyond types, fields and names: the distinct values a field takes in the items of a type,
// the fields of one item (for `field ID PATH`), and whether a field can be sorted on. Each is one request.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

extension ChannelCatalog {
    /// How many items `fieldValues` reads.
    package static let valueSampleSize = 300
    /// Values longer than this (in characters) are not offered: nobody types them, and they may be huge.
    package static let longestValue = 200
    /// At most this many distinct values are kept per field.
    package static let mostValues = 200

    /// The standard fields a condition may name (any other name means `fields.NAME`).
    package static let standardFields = [
        "type", "name", "id", "slug", "description", "language", "createdDate", "updatedDate",
    ]
    /// The standard fields the API sorts on across types.
    package static let sortableStandardFields = ["name", "createdDate", "updatedDate"]

    /// The distinct values of `field` (a standard field, or a user field with or without `fields.`) in the
    /// first `valueSampleSize` items of `type`, sorted: text, numbers and booleans, and the elements of lists
    /// of them. Longer values and values of other kinds are left out.
    package static func fieldValues(_ client: DeliveryClient, type: String, field: String) async throws -> [String] {
        let name = field.hasPrefix("fields.") ? String(field.dropFirst("fields.".count)) : field
        let standard = !field.hasPrefix("fields.") && standardFields.contains(field)
        // Asking for the one field keeps big fields of the items out of the page (a summary lacks slug and
        // language, so standard fields are asked for too).
        let request = DeliveryAPI.listAssets().query(try QueryNode.equal(field: "type", value: type))
            .limit(valueSampleSize).fields(.names([name]))
        var values = Set<String>()
        for item in try await client.fetch(request).items where values.count < mostValues {
            let value = standard ? item.raw[name] : item.customFields[name]
            for text in scalars(value) where text.count <= longestValue && !text.isEmpty && values.count < mostValues {
                values.insert(text)
            }
        }
        return values.sorted()
    }

    /// The fields of the item `reference` (an id, or `slug:SLUG`), with text values longer than
    /// `longestValue` emptied: what completing a path needs (names, references, lists), not the content.
    package static func itemFields(_ client: DeliveryClient, reference: String) async throws -> [String: JSON] {
        let request: ReadAsset
        switch ReadTarget(reference: reference) {
        case .id(let id): request = DeliveryAPI.readAsset(id: id)
        case .slug(let slug): request = DeliveryAPI.readAsset(slug: slug)
        }
        return (try await client.fetch(request).fields ?? [:]).mapValues(shape)
    }

    /// Whether the API sorts on a user field holding `value`: single number and date values (the Delivery
    /// API's documented sort keys within a type; text is not among them).
    package static func isSortable(_ value: JSON) -> Bool {
        switch value {
        case .int, .double: return true
        case .object(let members): return members["value"]?.stringValue != nil && members["id"] == nil
        default: return false
        }
    }

    /// The texts of a scalar value or a list of them.
    private static func scalars(_ value: JSON?) -> [String] {
        switch value {
        case .string(let text)?: return [text]
        case .int(let number)?: return [String(number)]
        case .double(let number)?: return [String(number)]
        case .bool(let flag)?: return [String(flag)]
        case .array(let elements)?: return elements.flatMap { scalars($0) }
        default: return []
        }
    }

    /// `value` with long texts emptied, at any depth.
    private static func shape(_ value: JSON) -> JSON {
        switch value {
        case .string(let text) where text.count > longestValue: return .string("")
        case .array(let elements): return .array(elements.map(shape))
        case .object(let members): return .object(members.mapValues(shape))
        default: return value
        }
    }
}
