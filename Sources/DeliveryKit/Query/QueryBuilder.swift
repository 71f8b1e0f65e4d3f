// A left fold over query nodes, rendering the same `q` text as Oracle's SDK (delivery-api.md §5.6):
// `and`/`or` combine everything built so far with the new operand, and `grouping: .grouped`
// parenthesises that whole combination, not just the new operand. A single node is never
// parenthesised. `not` is an addition of ours (the SDK has none) for the management-style
// `NOT (...)` that the search syntax documents.
//
// The builder holds core's `QueryExpression` as the SDK's text has it: a group where the SDK
// writes parentheses and none elsewhere, so `a or b` `and c` prints `a or b and c` exactly as
// the SDK sends it (and the API reads it by precedence). Core's printer writes the text.
import OCEQCore

/// Whether a combination is wrapped in parentheses.
public enum QueryGrouping: Sendable, Hashable {
    case none
    case grouped
}

/// Builds a `q` expression from nodes with and/or, grouping and match lists.
public struct QueryBuilder: Sendable, Hashable, CustomStringConvertible {
    /// The expression as built, groups where the text has parentheses.
    public private(set) var expression: QueryExpression
    /// The keyword case of the text (`and`/`or` for the SDK's builder).
    public var style: QueryStyle

    /// A builder starting with one node.
    public init(node: QueryNode) {
        self.init(expression: node.expression)
    }

    /// A builder over an expression built elsewhere (the language's compiler), written as it
    /// stands in `style`.
    public init(expression: QueryExpression, style: QueryStyle = .sdk) {
        self.expression = expression
        self.style = style
    }

    /// A builder starting with the nodes ORed together and parenthesised (`(A eq "1" or A eq "2")`).
    public init(matchList: [QueryNode]) throws(QueryError) {
        self.init(expression: try QueryBuilder.orChain(matchList))
    }

    static func orChain(_ nodes: [QueryNode]) throws(QueryError) -> QueryExpression {
        guard let first = nodes.first else { throw .emptyMatchList(field: "") }
        guard nodes.count > 1 else { return first.expression }
        return .group(.or(nodes.map(\.expression)))
    }

    /// Everything so far `and` the node.
    public func and(_ node: QueryNode, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine(and: true, node.expression, grouping)
    }

    /// Everything so far `or` the node.
    public func or(_ node: QueryNode, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine(and: false, node.expression, grouping)
    }

    /// Everything so far `and` another builder's expression (as that builder grouped it).
    public func and(builder: QueryBuilder, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine(and: true, builder.expression, grouping)
    }

    /// Everything so far `or` another builder's expression (as that builder grouped it).
    public func or(builder: QueryBuilder, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine(and: false, builder.expression, grouping)
    }

    /// Everything so far `and` the ORed match list, all parenthesised:
    /// `(A eq "1" and (B eq "2" or B eq "3"))`.
    public func and(matchList: [QueryNode]) throws(QueryError) -> QueryBuilder {
        combine(and: true, try QueryBuilder.orChain(matchList), .grouped)
    }

    /// `NOT (expression)`.
    public static func not(_ builder: QueryBuilder) -> QueryBuilder {
        QueryBuilder(expression: .not(.group(builder.expression)), style: builder.style)
    }

    /// The fold step: what was built so far, the keyword, the operand; an ungrouped run of the same
    /// keyword stays one list (the text is the same).
    private func combine(and isAnd: Bool, _ right: QueryExpression, _ grouping: QueryGrouping) -> QueryBuilder {
        var combined: QueryExpression
        switch (expression, isAnd) {
        case (.and(let operands), true): combined = .and(operands + [right])
        case (.or(let operands), false): combined = .or(operands + [right])
        default: combined = isAnd ? .and([expression, right]) : .or([expression, right])
        }
        if grouping == .grouped { combined = .group(combined) }
        return QueryBuilder(expression: combined, style: style)
    }

    /// The `q` text.
    public func buildQueryString() -> String { expression.text(style: style) }

    /// True when the text is not empty.
    public var isValidQueryString: Bool { !buildQueryString().isEmpty }

    /// The `q` text.
    public var description: String { buildQueryString() }
}
