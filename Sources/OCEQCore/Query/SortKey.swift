// `orderBy` keys: what a client's request writes and what `OrderByParser` reads.

/// A sort direction.
public enum SortOrder: String, Sendable, Hashable {
    /// Ascending.
    case asc
    /// Descending.
    case desc
}

/// One key of `orderBy`, rendered `name:asc` / `name:desc`.
public struct SortKey: Sendable, Hashable, CustomStringConvertible {
    /// The field as the API names it (`name`, `fields.published_date`).
    public var field: String
    /// The direction.
    public var order: SortOrder

    /// A key on `field`, ascending unless told.
    public init(_ field: String, _ order: SortOrder = .asc) {
        self.field = field
        self.order = order
    }

    /// Any field (`name`, `updatedDate`, `fields.published_date`, ...).
    public static func field(_ name: String, _ order: SortOrder = .asc) -> SortKey { SortKey(name, order) }
    /// `name`
    public static func name(_ order: SortOrder = .asc) -> SortKey { SortKey("name", order) }
    /// `createdDate`
    public static func createdDate(_ order: SortOrder = .asc) -> SortKey { SortKey("createdDate", order) }
    /// `updatedDate`
    public static func updatedDate(_ order: SortOrder = .asc) -> SortKey { SortKey("updatedDate", order) }
    /// `position` (categories)
    public static func position(_ order: SortOrder = .asc) -> SortKey { SortKey("position", order) }

    /// `field:asc` or `field:desc`.
    public var description: String { "\(field):\(order.rawValue)" }
}
