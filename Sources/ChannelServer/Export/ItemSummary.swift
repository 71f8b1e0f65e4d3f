/// What a summary entry of an `/items` page shows of an item (Delivery lists `id`, `type`, `name`,
/// `description` and a `self` link unless `fields` asks for more).
public struct ItemSummary: Sendable, Equatable {
    /// The item's id.
    public var id: String
    /// Its type's name.
    public var type: String
    /// Its name.
    public var name: String
    /// Its description ("" when it has none).
    public var description: String

    /// A summary of these four strings.
    public init(id: String, type: String, name: String, description: String) {
        self.id = id
        self.type = type
        self.name = name
        self.description = description
    }

    /// The summary of `item`.
    public init(_ item: ExportItem) {
        self.init(id: item.id, type: item.type, name: item.name, description: item.description)
    }
}
