import OCEQCore

/// The user fields of a run of items in order of first appearance (keys sorted within an item),
/// each with the kinds of value it holds (`IndexedValue.kinds`, a `ValueKind.bit` mask): what the
/// index builder names fields and gives full-text columns by. Runs read on several cores are
/// joined in order with `append(contentsOf:)`, which keeps the first-appearance order.
struct FieldKinds: Sendable {
    /// The fields in order of first appearance, with their kinds.
    private(set) var fields: [(key: String, kinds: Int64)] = []
    private var position: [String: Int] = [:]

    /// Adds one item's user fields.
    mutating func add(_ itemFields: [String: JSON]) {
        for key in itemFields.keys.sorted() { add(key, kinds: IndexedValue.kinds(of: itemFields[key]!)) }
    }

    /// Adds the fields of a later run of items.
    mutating func append(contentsOf later: FieldKinds) {
        for (key, kinds) in later.fields { add(key, kinds: kinds) }
    }

    private mutating func add(_ key: String, kinds: Int64) {
        if let at = position[key] {
            fields[at].kinds |= kinds
        } else {
            position[key] = fields.count
            fields.append((key, kinds))
        }
    }
}
