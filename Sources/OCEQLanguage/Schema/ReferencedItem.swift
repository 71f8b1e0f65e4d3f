/// The item a reference (`@n`, or a `$name` bound to one item) stands for, as far as the session knows
/// it: enough to tell that a reference field is compared with an item of a type it cannot point at.
package struct ReferencedItem: Sendable, Hashable {
    /// The item's name.
    package var name: String
    /// The item's type (`Image`, `OCEGettingStartedTopic`).
    package var type: String

    /// The item called `name`, of type `type`.
    package init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}
