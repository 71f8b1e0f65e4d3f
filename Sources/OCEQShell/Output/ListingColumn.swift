// The columns of a listing follow the query that made it (issue 18, point 1):
//
// - `id` always comes first: it is what `@n`, `get` and `download` take.
// - Without `fields` (or with `fields all`): `type`, `name`, `description`, the summary the API
//   sends. With `fields a,b`: the fields asked for, in the order asked, and nothing else.
// - Each `order` field not shown yet follows (SelectRunner asks the server for it).
// - A field that a single-valued filter pins (`type=X`, `topic=@2`: an `eq` ANDed at the top of
//   `q`) is left out, since every row would repeat it, unless `fields` names it.
//
// The table puts `#` in front (the row number `@n` takes); csv and ndjson carry the same columns
// without it (line n is row n). A cell is the value as one line: a reference by its name (the id
// when the server sent no name), a date as its value, a list joined by `, `. ndjson keeps each
// value's JSON (a reference as `{id, type, name}`, a date as its value).

import DeliveryKit
import OCEQCore
import OCEQLanguage

/// One column of a listing: its header and where its value sits in an item.
package struct ListingColumn: Sendable, Hashable {
    /// The header: a standard field's name, or a user field's name without `fields.`.
    package var name: String
    /// The field as the API names it (`name`, `fields.topic`).
    package var field: String
    /// Whether the query named it (`fields`, `order`): such columns keep their width longest.
    package var asked: Bool

    /// A column for the API field `field` (`name`, `updatedDate`, `fields.topic`).
    package init(field: String, asked: Bool = false) {
        self.field = field
        self.asked = asked
        self.name = field.hasPrefix("fields.") ? String(field.dropFirst("fields.".count)) : field
    }

    /// The summary columns of a listing the query does not shape: `id type name description`.
    package static let standard = ["id", "type", "name", "description"].map { ListingColumn(field: $0) }

    /// The columns for `query`: see the note at the top of this file.
    package static func columns(for query: CompiledQuery) -> [ListingColumn] {
        let asked = askedFields(query)
        var fields = ["id"] + (asked ?? ["type", "name", "description"])
        for key in query.orderKeys where !fields.contains(key.field) { fields.append(key.field) }
        let pinned = pinnedFields(query.filter)
        fields = fields.enumerated().filter { index, field in
            index == 0 || !pinned.contains(field) || asked?.contains(field) == true
        }.map(\.element)
        let named = Set((asked ?? []) + query.orderKeys.map(\.field))
        var seen: Set<String> = []
        return fields.filter { seen.insert($0).inserted }.map { ListingColumn(field: $0, asked: named.contains($0)) }
    }

    /// The fields a `fields` clause names, or nil for none or `all`.
    static func askedFields(_ query: CompiledQuery) -> [String]? {
        guard let list = query.fields, list.lowercased() != "all" else { return nil }
        return list.split(separator: ",").map(String.init)
    }

    /// The fields an `eq` condition ANDed at the top of `filter` pins to one value.
    static func pinnedFields(_ filter: QueryExpression?) -> Set<String> {
        guard let filter else { return [] }
        let operands: [QueryExpression]
        switch filter.ungrouped {
        case .and(let list): operands = list
        case let single: operands = [single]
        }
        var pinned: Set<String> = []
        for operand in operands {
            if case .condition(let condition) = operand, condition.op == .equal { pinned.insert(condition.field) }
        }
        return pinned
    }

    /// The value of this column in `asset`, as the server sent it (nil when absent).
    package func value(in asset: Asset) -> JSON? {
        if field.hasPrefix("fields.") { return asset.fields?[name] }
        return asset.raw[field]
    }

    /// The cell of this column for `asset`: one line, references by name.
    package func text(in asset: Asset) -> String {
        value(in: asset).map(ListingColumn.text(of:)) ?? ""
    }

    /// A value as one cell: strings as they are, a reference by its name (its id when nameless), a
    /// date by its value, a list joined by `, `, anything else as compact JSON.
    static func text(of value: JSON) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .array(let elements): return elements.map(text(of:)).joined(separator: ", ")
        case .object(let members):
            if let id = members["id"]?.stringValue {
                let name = members["name"]?.stringValue ?? ""
                return name.isEmpty ? id : name
            }
            if let date = members["value"]?.stringValue, members["timezone"] != nil { return date }
            return JSONWriter().string(value)
        default: return JSONWriter().string(value)
        }
    }

    /// A value as ndjson carries it: a reference as `{id, type, name}`, a date as its value, a list
    /// element by element, anything else as the server sent it.
    static func record(of value: JSON) -> JSON {
        switch value {
        case .array(let elements): return .array(elements.map(record(of:)))
        case .object(let members):
            if members["id"]?.stringValue != nil {
                return .object(members.filter { ["id", "type", "name"].contains($0.key) })
            }
            if let date = members["value"]?.stringValue, members["timezone"] != nil { return .string(date) }
            return value
        default: return value
        }
    }

    /// The ids of the references in `asset`'s cell of this column that carry no name.
    package func namelessReferences(in asset: Asset) -> [String] {
        func ids(_ value: JSON) -> [String] {
            switch value {
            case .array(let elements): return elements.flatMap(ids)
            case .object(let members):
                guard let id = members["id"]?.stringValue, (members["name"]?.stringValue ?? "").isEmpty else {
                    return []
                }
                return [id]
            default: return []
            }
        }
        return value(in: asset).map(ids) ?? []
    }
}

extension Listing {
    /// The cells of each row, one per column, cleaned of control characters.
    package var cells: [[String]] {
        items.map { asset in columns.map { TerminalText.clean($0.text(in: asset)) } }
    }

    /// One object per row keyed by column name, what ndjson writes.
    package var records: [JSON] {
        items.map { asset in
            var object: [String: JSON] = [:]
            for column in columns {
                object[column.name] = column.value(in: asset).map(ListingColumn.record(of:)) ?? .null
            }
            return .object(object)
        }
    }

    /// The columns' names (the header of table and csv, without `#`).
    package var columnNames: [String] { columns.map(\.name) }
}
