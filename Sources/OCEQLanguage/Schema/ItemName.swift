/// An item's name and id: a row offered by completion, a candidate for a name in a condition.
package struct ItemName: Sendable, Hashable {
    /// The name.
    package var name: String
    /// The id.
    package var id: String

    /// The item `id` called `name`.
    package init(name: String, id: String) {
        self.name = name
        self.id = id
    }

    /// True for OCM's item ids: four capital letters and 32 hexadecimal digits (`CORE…`, `CONT…`).
    package static func looksLikeID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        return bytes[..<4].allSatisfy { (0x41...0x5A).contains($0) }
            && bytes[4...].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
    }
}
