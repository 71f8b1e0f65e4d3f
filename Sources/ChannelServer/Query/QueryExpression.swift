import DeliveryKit
import OCEQCore

// The operators are DeliveryKit's `QueryOperator` (the client builds `q` with the same type); its
// raw values are the API's words. The server evaluates them so (SearchCompiler): `eq` is
// case-sensitive on standard fields and case-insensitive on user fields; `ne` is exactly
// `NOT (field eq "value")`, so items without the field match; `co` matches any of the words of the
// value; `sw` a case-insensitive prefix of the whole value; `ge` `gt` `le` `lt` compare numbers and
// datetimes; `mt` matches a phrase, with `?` and `*` wildcards inside words; `sm` a word within a
// few edits.

/// A parsed `q` search expression of the delivery API (`GET /items?q=...`).
///
/// The tree keeps the shape of the text: `a AND b AND c` is one `.and` with three children, a
/// parenthesised group is a nested node, `NOT` wraps its operand. `QueryParser` builds it;
/// `ChannelIndex` evaluates it.
public indirect enum QueryExpression: Sendable, Equatable {
    case condition(QueryCondition)
    case and([QueryExpression])
    case or([QueryExpression])
    case not(QueryExpression)
}

/// One `field op "value"` comparison.
public struct QueryCondition: Sendable, Equatable {
    /// The field path as written: a standard field (`name`), a user field (`fields.topic`) or a
    /// field of a referenced item (`fields.author.name`).
    public var field: String
    /// The comparison.
    public var op: QueryOperator
    /// The text between the double quotes, verbatim.
    public var value: String
    /// Character offset of the field name in `q`, for messages.
    public var offset: Int

    public init(field: String, op: QueryOperator, value: String, offset: Int = 0) {
        self.field = field
        self.op = op
        self.value = value
        self.offset = offset
    }

    /// Equality ignores `offset`, so tests can compare trees without positions.
    public static func == (lhs: QueryCondition, rhs: QueryCondition) -> Bool {
        lhs.field == rhs.field && lhs.op == rhs.op && lhs.value == rhs.value
    }
}

/// A `q` or `orderBy` text that could not be parsed.
public struct QuerySyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 0-based offset into the text, counted in Unicode scalars (characters, for ordinary text).
    public var offset: Int
    /// What went wrong, lower-case, without the position.
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `message at position N`, e.g. `expected an operator (eq, ne, co, ...) at position 14`.
    public var description: String { "\(message) at position \(offset)" }
}
