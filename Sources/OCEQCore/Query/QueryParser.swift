// The `q` parser: recursive descent over QueryLexer tokens.
//
//     expr      := term (OR term)*
//     term      := factor (AND factor)*
//     factor    := NOT ( "(" expr ")" | condition ) | "(" expr ")" | condition
//     condition := field op "value"
//
// AND binds tighter than OR. Keywords and operators are case-insensitive (the API writes
// operators in lower case; we accept `EQ` too). Field names are case-sensitive and checked here:
// a standard field, `fields.<name>` or `fields.<reference>.<field>`. Every error carries the
// offset of the offending token. The text is capped at `maximumLength` scalars and parenthesis
// nesting at `maximumDepth`, so hostile input fails cleanly instead of recursing without bound.

/// Parses the `q` parameter of `GET /items`.
public enum QueryParser {
    /// Longest accepted `q`, in Unicode scalars (the HTTP layer caps the bytes at 16 KiB already).
    public static let maximumLength = 16_384
    /// Deepest accepted nesting of parentheses.
    public static let maximumDepth = 64

    /// Parses a complete expression, or throws the first error with its position. Parentheses
    /// stay in the tree as groups (`ungrouped` drops them).
    public static func parse(_ q: String) throws(QuerySyntaxError) -> QueryExpression {
        var parser = try QueryTextParser(q)
        return try parser.parseQuery()
    }

    /// Parses with any field name accepted (the caller checks them): for searches over other
    /// resources than items, such as a taxonomy's categories (`parent.id`, `ancestors.name`).
    package static func parseAnyFields(_ q: String) throws(QuerySyntaxError) -> QueryExpression {
        var parser = try QueryTextParser(q)
        parser.checksFields = false
        return try parser.parseQuery()
    }

    /// The operator spellings a user may have meant for a symbol or a misspelt word.
    static func suggestion(forOperator text: String) -> QueryOperator? {
        let symbols: [String: QueryOperator] = [
            "=": .equal, "==": .equal, "!=": .notEqual, "<>": .notEqual, ">=": .greaterThanOrEqual, ">": .greaterThan,
            "<=": .lessThanOrEqual, "<": .lessThan,
            "~": .contains, "^=": .startsWith, "~=": .similar, "=~": .matches,
        ]
        if let op = symbols[text] { return op }
        let aliases: [String: QueryOperator] = [
            "equals": .equal, "is": .equal, "contains": .contains, "startswith": .startsWith, "like": .matches,
            "matches": .matches,
            "similar": .similar, "neq": .notEqual, "gte": .greaterThanOrEqual, "lte": .lessThanOrEqual,
        ]
        if let op = aliases[text.lowercased()] { return op }
        return Suggestions.closest(to: text, among: QueryOperator.allCases.map(\.rawValue))
            .flatMap(QueryOperator.init(rawValue:))
    }
}

private struct QueryTextParser {
    var lexer: QueryLexer
    var current: QueryToken
    var depth = 0
    /// Whether field names must be item fields (`QueryFieldPath.validate`).
    var checksFields = true

    init(_ text: String) throws(QuerySyntaxError) {
        lexer = QueryLexer(text)
        if lexer.count > QueryParser.maximumLength {
            throw QuerySyntaxError(
                offset: QueryParser.maximumLength,
                message: "query too long (more than \(QueryParser.maximumLength) characters)")
        }
        current = QueryToken(kind: .end, offset: 0)
        current = try lexer.next()
    }

    mutating func advance() throws(QuerySyntaxError) {
        current = try lexer.next()
    }

    mutating func parseQuery() throws(QuerySyntaxError) -> QueryExpression {
        if current.kind == .end { throw QuerySyntaxError(offset: 0, message: "empty query") }
        let expression = try parseExpression()
        switch current.kind {
        case .end:
            return expression
        case .rightParenthesis:
            throw QuerySyntaxError(offset: current.offset, message: "unbalanced parentheses: unexpected ')'")
        default:
            throw QuerySyntaxError(offset: current.offset, message: "expected AND, OR or the end of the query")
        }
    }

    mutating func parseExpression() throws(QuerySyntaxError) -> QueryExpression {
        var terms = [try parseTerm()]
        while current.keyword == "or" {
            try advance()
            terms.append(try parseTerm())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    mutating func parseTerm() throws(QuerySyntaxError) -> QueryExpression {
        var factors = [try parseFactor()]
        while current.keyword == "and" {
            try advance()
            factors.append(try parseFactor())
        }
        return factors.count == 1 ? factors[0] : .and(factors)
    }

    mutating func enter() throws(QuerySyntaxError) {
        depth += 1
        if depth > QueryParser.maximumDepth {
            throw QuerySyntaxError(
                offset: current.offset,
                message: "expression nested too deeply (more than \(QueryParser.maximumDepth) levels)")
        }
    }

    mutating func parseFactor() throws(QuerySyntaxError) -> QueryExpression {
        switch current.kind {
        case .leftParenthesis:
            return try parseGroup()
        case .word where current.keyword == "not":
            // NOT takes a group or a condition, never another NOT, so parentheses bound its depth.
            try advance()
            switch current.kind {
            case .leftParenthesis:
                return .not(try parseGroup())
            case .word where current.keyword == nil:
                return .not(try parseCondition())
            default:
                throw QuerySyntaxError(offset: current.offset, message: "expected '(' or a condition after NOT")
            }
        case .word where current.keyword != nil:
            let word = current.keyword!.uppercased()
            throw QuerySyntaxError(offset: current.offset, message: "expected a condition before \(word)")
        case .word:
            return try parseCondition()
        case .string:
            throw QuerySyntaxError(offset: current.offset, message: "expected a field name before the value")
        case .rightParenthesis:
            throw QuerySyntaxError(
                offset: current.offset, message: "expected a condition (field operator \"value\") before ')'")
        case .symbol(let text):
            throw QuerySyntaxError(offset: current.offset, message: "unexpected '\(text)'")
        case .end:
            throw QuerySyntaxError(
                offset: current.offset, message: "expected a condition (field operator \"value\")")
        }
    }

    /// `"(" expr ")"`, with the current token on the `(`.
    mutating func parseGroup() throws(QuerySyntaxError) -> QueryExpression {
        let open = current.offset
        try enter()
        defer { depth -= 1 }
        try advance()
        let inner = try parseExpression()
        switch current.kind {
        case .rightParenthesis:
            try advance()
            return .group(inner)
        case .end:
            throw QuerySyntaxError(offset: open, message: "unbalanced parentheses: '(' is never closed")
        default:
            throw QuerySyntaxError(offset: current.offset, message: "expected AND, OR or ')'")
        }
    }

    mutating func parseCondition() throws(QuerySyntaxError) -> QueryExpression {
        guard case .word(let field) = current.kind else {
            throw QuerySyntaxError(offset: current.offset, message: "expected a field name")
        }
        let fieldOffset = current.offset
        if checksFields { try QueryFieldPath.validate(field, offset: fieldOffset) }
        try advance()

        let op: QueryOperator
        switch current.kind {
        case .word(let text) where current.keyword == nil:
            guard let known = QueryOperator(rawValue: text.lowercased()) else {
                throw unknownOperator(text)
            }
            op = known
        case .symbol(let text):
            throw unknownOperator(text)
        default:
            throw QuerySyntaxError(
                offset: current.offset, message: "expected an operator (eq, ne, co, sw, ge, gt, le, lt, mt, sm)")
        }
        try advance()

        guard case .string(let value) = current.kind else {
            let message =
                switch current.kind {
                case .word, .symbol: "expected a value in double quotes"
                default: "expected a value in double quotes after '\(op.rawValue)'"
                }
            throw QuerySyntaxError(offset: current.offset, message: message)
        }
        try advance()
        return .condition(QueryCondition(field: field, op: op, value: value, offset: fieldOffset))
    }

    func unknownOperator(_ text: String) -> QuerySyntaxError {
        var message = "unknown operator '\(text)'"
        if let op = QueryParser.suggestion(forOperator: text) { message += " (did you mean '\(op.rawValue)'?)" }
        return QuerySyntaxError(offset: current.offset, message: message)
    }
}
