// One condition of a search expression, rendered as `field op "value"` exactly as Oracle's SDK
// renders it (delivery-api.md §5.6), except that a value containing `"` is refused (the syntax has
// no escape) and doubles never print in exponent notation. The condition is core's
// `QueryCondition`, printed by core's one printer.

import FoundationEssentials
import OCEQCore

/// One search condition (`field op "value"`) or raw query text: a leaf of core's `QueryExpression`.
public struct QueryNode: Sendable, Hashable, CustomStringConvertible {
    /// The leaf: a `.condition` or `.verbatim` text.
    public let expression: QueryExpression

    /// A condition with any operator and value kind; the general form behind the named factories.
    public static func condition(
        field: String, _ op: QueryOperator, _ value: QueryValue
    ) throws(QueryError) -> QueryNode {
        try QueryNode.validate(field: field)
        let condition = QueryCondition(field: field, op: op, value: try value.text(field: field))
        return QueryNode(expression: .condition(condition))
    }

    /// Raw query text, passed through unchanged.
    public static func queryText(value: String) -> QueryNode {
        QueryNode(expression: .verbatim(value))
    }

    /// The field tested, or nil for raw text.
    public var field: String? {
        if case .condition(let condition) = expression { return condition.field }
        return nil
    }

    /// The operator, or nil for raw text.
    public var op: QueryOperator? {
        if case .condition(let condition) = expression { return condition.op }
        return nil
    }

    /// The `q` text of this node.
    public func buildQueryString() -> String { expression.text(style: .sdk) }

    /// The `q` text of this node.
    public var description: String { buildQueryString() }

    static func validate(field: String) throws(QueryError) {
        let forbidden: Set<Character> = ["\"", "(", ")"]
        if field.isEmpty || field.contains(where: { $0.isWhitespace || forbidden.contains($0) }) {
            throw .invalidField(field)
        }
    }
}

// The SDK's named factories. `equal` and `contains` take every value kind; `startsWith`, `match`
// and `similar` strings only; the ordered comparisons numbers and dates (and strings, for values
// already formatted by the caller).
extension QueryNode {
    /// `field eq "value"`
    public static func equal(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .equal, .string(value))
    }
    /// `field eq "1"`
    public static func equal(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .equal, .int(intValue))
    }
    /// `field eq "1.5"`
    public static func equal(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .equal, .double(doubleValue))
    }
    /// `field eq "<date>"`
    public static func equal(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .equal, .date(dateValue, format))
    }

    /// `field ne "value"`
    public static func notEqual(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .notEqual, .string(value))
    }
    /// `field ne "1"`
    public static func notEqual(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .notEqual, .int(intValue))
    }
    /// `field ne "1.5"`
    public static func notEqual(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .notEqual, .double(doubleValue))
    }
    /// `field ne "<date>"`
    public static func notEqual(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .notEqual, .date(dateValue, format))
    }

    /// `field co "value"`
    public static func contains(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .contains, .string(value))
    }
    /// `field co "1"`
    public static func contains(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .contains, .int(intValue))
    }
    /// `field co "1.5"`
    public static func contains(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .contains, .double(doubleValue))
    }
    /// `field co "<date>"`
    public static func contains(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .contains, .date(dateValue, format))
    }

    /// `field sw "value"`
    public static func startsWith(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .startsWith, .string(value))
    }
    /// `field mt "value"` (wildcards `?` and `*`).
    public static func match(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .matches, .string(value))
    }
    /// `field sm "value"`
    public static func similar(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .similar, .string(value))
    }

    /// `field gt "value"`
    public static func greaterThan(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThan, .string(value))
    }
    /// `field gt "1"`
    public static func greaterThan(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThan, .int(intValue))
    }
    /// `field gt "1.5"`
    public static func greaterThan(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThan, .double(doubleValue))
    }
    /// `field gt "<date>"`
    public static func greaterThan(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThan, .date(dateValue, format))
    }

    /// `field ge "value"`
    public static func greaterThanOrEqual(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThanOrEqual, .string(value))
    }
    /// `field ge "1"`
    public static func greaterThanOrEqual(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThanOrEqual, .int(intValue))
    }
    /// `field ge "1.5"`
    public static func greaterThanOrEqual(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThanOrEqual, .double(doubleValue))
    }
    /// `field ge "<date>"`
    public static func greaterThanOrEqual(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .greaterThanOrEqual, .date(dateValue, format))
    }

    /// `field lt "value"`
    public static func lessThan(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThan, .string(value))
    }
    /// `field lt "1"`
    public static func lessThan(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThan, .int(intValue))
    }
    /// `field lt "1.5"`
    public static func lessThan(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThan, .double(doubleValue))
    }
    /// `field lt "<date>"`
    public static func lessThan(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThan, .date(dateValue, format))
    }

    /// `field le "value"`
    public static func lessThanOrEqual(field: String, value: String) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThanOrEqual, .string(value))
    }
    /// `field le "1"`
    public static func lessThanOrEqual(field: String, intValue: Int) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThanOrEqual, .int(intValue))
    }
    /// `field le "1.5"`
    public static func lessThanOrEqual(field: String, doubleValue: Double) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThanOrEqual, .double(doubleValue))
    }
    /// `field le "<date>"`
    public static func lessThanOrEqual(
        field: String, dateValue: Date, format: QueryDateFormat = .date
    ) throws(QueryError) -> QueryNode {
        try condition(field: field, .lessThanOrEqual, .date(dateValue, format))
    }

    /// `eq` nodes for each value, to OR together with `QueryBuilder(matchList:)`.
    public static func matchList(field: String, values: [String]) throws(QueryError) -> [QueryNode] {
        try matchList(field: field, values.map(QueryValue.string))
    }
    /// `eq` nodes for each integer.
    public static func matchList(field: String, intValues: [Int]) throws(QueryError) -> [QueryNode] {
        try matchList(field: field, intValues.map(QueryValue.int))
    }
    /// `eq` nodes for each double.
    public static func matchList(field: String, doubleValues: [Double]) throws(QueryError) -> [QueryNode] {
        try matchList(field: field, doubleValues.map(QueryValue.double))
    }
    /// `eq` nodes for each date.
    public static func matchList(
        field: String, dateValues: [Date], format: QueryDateFormat = .date
    ) throws(QueryError) -> [QueryNode] {
        try matchList(field: field, dateValues.map { QueryValue.date($0, format) })
    }

    static func matchList(field: String, _ values: [QueryValue]) throws(QueryError) -> [QueryNode] {
        guard !values.isEmpty else { throw .emptyMatchList(field: field) }
        var nodes: [QueryNode] = []
        for value in values { nodes.append(try condition(field: field, .equal, value)) }
        return nodes
    }
}
