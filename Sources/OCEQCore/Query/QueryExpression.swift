// The one `q` search expression of the delivery API (`GET /items?q=...`), shared by the language's
// compiler, DeliveryKit's SDK-shaped `QueryBuilder` and `oceq serve`.
//
// The tree is the text's shape: `a AND b AND c` is one `.and` with three children, parentheses are
// a `.group`, `NOT` wraps its operand. So one printer writes any tree back as it stands (only the
// keyword case is a style), and `QueryParser.parse(e.text()) == e` for every tree the parser can
// produce. Code that wants the meaning rather than the text uses `ungrouped`; code that builds a
// meaning and wants safe text uses `parenthesized(whole:)`, which groups every nested and/or.
// A tree that nests and/or without a group (Oracle's SDK folds `a or b` `and c` so) prints as the
// SDK prints it, and reads back by precedence, as the API reads it.

/// A `q` search expression.
public indirect enum QueryExpression: Sendable, Hashable {
    /// `field op "value"`
    case condition(QueryCondition)
    /// `a AND b AND ...` (two or more operands).
    case and([QueryExpression])
    /// `a OR b OR ...` (two or more operands).
    case or([QueryExpression])
    /// `NOT a`: the operand is a condition or a group.
    case not(QueryExpression)
    /// `(a)`: parentheses as written.
    case group(QueryExpression)
    /// Query text passed through unchanged (the SDK's `queryText` node); the parser never makes one.
    case verbatim(String)

    /// The tree without groups: `(a AND b) AND c` is `.and([.and([a, b]), c])`, `((a))` is `a`.
    public var ungrouped: QueryExpression {
        switch self {
        case .condition, .verbatim: return self
        case .and(let operands): return .and(operands.map(\.ungrouped))
        case .or(let operands): return .or(operands.map(\.ungrouped))
        case .not(let operand): return .not(operand.ungrouped)
        case .group(let inner): return inner.ungrouped
        }
    }

    /// The tree with every nested and/or and every `NOT` operand in parentheses, and the whole
    /// expression too when `whole` is set: `(A AND (B OR C))`, `(NOT (A))`; precedence never matters.
    public func parenthesized(whole: Bool) -> QueryExpression {
        let inner = ungrouped.groupedOperands()
        if case .verbatim = inner { return inner }
        return whole ? .group(inner) : inner
    }

    /// Operands grouped, the node itself not.
    private func groupedOperands() -> QueryExpression {
        switch self {
        case .condition, .verbatim, .group: return self
        case .and(let operands): return .and(operands.map { $0.groupedOperands().asOperand() })
        case .or(let operands): return .or(operands.map { $0.groupedOperands().asOperand() })
        case .not(let operand):
            let inner = operand.groupedOperands()
            if case .verbatim = inner { return .not(inner) }
            return .not(.group(inner))
        }
    }

    /// An and/or in parentheses; anything else as it is.
    private func asOperand() -> QueryExpression {
        switch self {
        case .and, .or: return .group(self)
        default: return self
        }
    }
}

/// One `field op "value"` comparison.
public struct QueryCondition: Sendable, Hashable {
    /// The field path as written: a standard field (`name`), a user field (`fields.topic`) or a
    /// field of a referenced item (`fields.author.name`).
    public var field: String
    /// The comparison.
    public var op: QueryOperator
    /// The text between the double quotes, verbatim.
    public var value: String
    /// Character offset of the field name in the parsed text, for messages (0 for built conditions).
    public var offset: Int

    /// `field op "value"`.
    public init(field: String, op: QueryOperator, value: String, offset: Int = 0) {
        self.field = field
        self.op = op
        self.value = value
        self.offset = offset
    }

    /// Equality ignores `offset`, so trees compare without positions.
    public static func == (lhs: QueryCondition, rhs: QueryCondition) -> Bool {
        lhs.field == rhs.field && lhs.op == rhs.op && lhs.value == rhs.value
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(field)
        hasher.combine(op)
        hasher.combine(value)
    }
}
