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
}
