/// The comparison operators of the delivery search syntax (delivery-api.md §5.2).
public enum QueryOperator: String, Sendable, Hashable, CaseIterable {
    /// Equals; not for multivalued fields; case-insensitive except on standard fields.
    case equal = "eq"
    /// Not equal (named by the search documentation, details undocumented).
    case notEqual = "ne"
    /// Contains any of the words of the value.
    case contains = "co"
    /// Starts with.
    case startsWith = "sw"
    /// Greater than or equal (numbers and dates).
    case greaterThanOrEqual = "ge"
    /// Greater than (numbers and dates).
    case greaterThan = "gt"
    /// Less than or equal (numbers and dates).
    case lessThanOrEqual = "le"
    /// Less than (numbers and dates).
    case lessThan = "lt"
    /// Phrase/proximity match with `?` and `*` wildcards.
    case matches = "mt"
    /// Similar (fuzzy, up to two edits).
    case similar = "sm"
}
