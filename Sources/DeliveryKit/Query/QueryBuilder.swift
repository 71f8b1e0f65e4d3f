// A left fold over query nodes, rendering the same `q` text as Oracle's SDK (delivery-api.md §5.6):
// `and`/`or` combine everything built so far with the new operand, and `grouping: .grouped`
// parenthesises that whole combination, not just the new operand. A single node is never
// parenthesised. `not` is an addition of ours (the SDK has none) for the management-style
// `NOT (...)` that the search syntax documents.
import OCEQCore

/// Whether a combination is wrapped in parentheses.
public enum QueryGrouping: Sendable, Hashable {
    case none
    case grouped
}

/// Builds a `q` expression from nodes with and/or, grouping and match lists.
public struct QueryBuilder: Sendable, Hashable, CustomStringConvertible {
    indirect enum Tree: Sendable, Hashable {
        case leaf(String)
        case binary(op: String, left: Tree, right: Tree, grouped: Bool)
        case not(Tree)

        func text() -> String {
            switch self {
            case .leaf(let text): return text
            case .binary(let op, let left, let right, let grouped):
                let inner = left.text() + " " + op + " " + right.text()
                return grouped ? "(" + inner + ")" : inner
            case .not(let tree): return "NOT (" + tree.text() + ")"
            }
        }

        func grouped() -> Tree {
            if case .binary(let op, let left, let right, _) = self {
                return .binary(op: op, left: left, right: right, grouped: true)
            }
            return self
        }
    }

    var root: Tree

    /// A builder starting with one node.
    public init(node: QueryNode) {
        root = .leaf(node.buildQueryString())
    }

    /// A builder starting with the nodes ORed together and parenthesised (`(A eq "1" or A eq "2")`).
    public init(matchList: [QueryNode]) throws(QueryError) {
        root = try QueryBuilder.orChain(matchList)
    }

    init(root: Tree) {
        self.root = root
    }

    static func orChain(_ nodes: [QueryNode]) throws(QueryError) -> Tree {
        guard let first = nodes.first else { throw .emptyMatchList(field: "") }
        var tree = Tree.leaf(first.buildQueryString())
        for node in nodes.dropFirst() {
            tree = .binary(op: "or", left: tree, right: .leaf(node.buildQueryString()), grouped: false)
        }
        return tree.grouped()
    }

    /// Everything so far `and` the node.
    public func and(_ node: QueryNode, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine("and", .leaf(node.buildQueryString()), grouping)
    }

    /// Everything so far `or` the node.
    public func or(_ node: QueryNode, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine("or", .leaf(node.buildQueryString()), grouping)
    }

    /// Everything so far `and` another builder's expression (as that builder grouped it).
    public func and(builder: QueryBuilder, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine("and", builder.root, grouping)
    }

    /// Everything so far `or` another builder's expression (as that builder grouped it).
    public func or(builder: QueryBuilder, grouping: QueryGrouping = .none) -> QueryBuilder {
        combine("or", builder.root, grouping)
    }

    /// Everything so far `and` the ORed match list, all parenthesised:
    /// `(A eq "1" and (B eq "2" or B eq "3"))`.
    public func and(matchList: [QueryNode]) throws(QueryError) -> QueryBuilder {
        combine("and", try QueryBuilder.orChain(matchList), .grouped)
    }

    /// `NOT (expression)`.
    public static func not(_ builder: QueryBuilder) -> QueryBuilder {
        QueryBuilder(root: .not(builder.root))
    }

    private func combine(_ op: String, _ right: Tree, _ grouping: QueryGrouping) -> QueryBuilder {
        QueryBuilder(root: .binary(op: op, left: root, right: right, grouped: grouping == .grouped))
    }

    /// The `q` text.
    public func buildQueryString() -> String { root.text() }

    /// True when the text is not empty.
    public var isValidQueryString: Bool { !buildQueryString().isEmpty }

    public var description: String { buildQueryString() }
}
