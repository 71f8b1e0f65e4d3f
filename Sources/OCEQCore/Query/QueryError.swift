/// A query that cannot be rendered as `q` text.
public enum QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value contains a double quote; the API has no escape for it inside a quoted value.
    case quoteInValue(field: String, value: String)
    /// The field name is empty or contains a space, a quote or a parenthesis.
    case invalidField(String)
    /// A match list needs at least one value.
    case emptyMatchList(field: String)
    /// NaN and infinities have no decimal form.
    case nonFiniteNumber(field: String)
    /// The date pattern is not one of the supported calendar-year patterns.
    case invalidDatePattern(pattern: String, reason: String)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .quoteInValue(let field, let value):
            return "the value for \(field) contains a double quote, which the query syntax cannot express: \(value)"
        case .invalidField(let field):
            return "invalid field name \"\(field)\": expected a name without spaces, quotes or parentheses"
        case .emptyMatchList(let field):
            return field.isEmpty ? "a match list is empty" : "the match list for \(field) is empty"
        case .nonFiniteNumber(let field): return "the number for \(field) is not finite"
        case .invalidDatePattern(let pattern, let reason): return "invalid date pattern \"\(pattern)\": \(reason)"
        }
    }
}
