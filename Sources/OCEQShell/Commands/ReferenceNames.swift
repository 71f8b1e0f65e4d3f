// A reference in an item's JSON is `{id, type, name?}`. The API's stubs carry the name, but a server
// may leave it out; a listing shows references by name, so the ids of nameless references in the
// shown columns are read in one more request per 50 of them (`q=(id eq "A" OR id eq "B")`,
// `fields=name`), and only when some name is missing. `expand` on `/items` would save that request
// but is undocumented (delivery-api.md §3, E1) and replaces the stub with the whole item. A lookup
// that fails leaves the ids as they are: the listing is shown anyway.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

/// Fills in the names of references that the server sent without one.
enum ReferenceNames {
    /// How many ids one lookup asks for.
    static let batch = 50

    /// `listing` with the names of its shown references filled in.
    static func fill(_ listing: inout Listing, client: DeliveryClient) async {
        var wanted: [String] = []
        var seen: Set<String> = []
        for asset in listing.items {
            for column in listing.columns {
                for id in column.namelessReferences(in: asset) where seen.insert(id).inserted { wanted.append(id) }
            }
        }
        guard !wanted.isEmpty else { return }
        var names: [String: String] = [:]
        var start = 0
        while start < wanted.count {
            let ids = Array(wanted[start..<min(start + batch, wanted.count)])
            start += batch
            let conditions = ids.map { QueryExpression.condition(QueryCondition(field: "id", op: .equal, value: $0)) }
            let query = CompiledQuery(
                kind: .list, filter: conditions.count == 1 ? conditions[0] : .or(conditions), limit: ids.count,
                fields: "name")
            guard let page = try? await client.fetch(query.request()) else { continue }
            for item in page.items where !item.name.isEmpty { names[item.id] = item.name }
        }
        guard !names.isEmpty else { return }
        listing.items = listing.items.map { asset in
            guard var fields = asset.fields else { return asset }
            for column in listing.columns where column.field.hasPrefix("fields.") {
                if let value = fields[column.name] { fields[column.name] = named(value, names) }
            }
            var raw = asset.raw
            raw["fields"] = .object(fields)
            return (try? Asset(json: .object(raw))) ?? asset
        }
    }

    /// `value` with each nameless reference given its name from `names`.
    static func named(_ value: JSON, _ names: [String: String]) -> JSON {
        switch value {
        case .array(let elements): return .array(elements.map { named($0, names) })
        case .object(var members):
            guard let id = members["id"]?.stringValue, (members["name"]?.stringValue ?? "").isEmpty,
                let name = names[id]
            else { return value }
            members["name"] = .string(name)
            return .object(members)
        default: return value
        }
    }
}
