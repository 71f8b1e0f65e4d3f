// condition := or                  -- in a select, adjacent conditions are ANDed
// or        := and ('or' and)*
// and       := unary ('and' unary)*
// unary     := 'not' unary | '(' or+ ')' | field op value | field ['not'] 'in' '(' value (',' value)* ')'
//
// So explicit `and` binds tighter than `or`, and the implicit AND between adjacent conditions is
// the loosest of all: `list type=A name=x or name=y` means type=A AND (name=x OR name=y). Inside
// parentheses adjacent conditions are ANDed the same way.
//
// Recovery: a wrong operator (`==`, `eqq`, `&&`) is reported with a suggestion and parsing goes
// on as if the right one had been written, so one statement can report several problems.

import OCEQCore

extension ParserState {
    mutating func parseOr() -> Condition? {
        guard let first = parseAnd() else { return nil }
        var rest: [Condition] = []
        while !aborted {
            let token = current
            if isKeyword(token, .or) {
                advance()
            } else if token.kind == .pipe && peek(1).kind == .pipe && !peek(1).spaceBefore {
                diagnose(.unknownOperator("||", suggestion: "or"), at: token.span.union(peek(1).span))
                advance()
                advance()
            } else {
                break
            }
            guard let next = parseAnd() else { return nil }
            rest.append(next)
        }
        return ParserState.combine(first, rest, Condition.Kind.or)
    }

    mutating func parseAnd() -> Condition? {
        guard let first = parseUnary() else { return nil }
        var rest: [Condition] = []
        while !aborted {
            let token = current
            if isKeyword(token, .and) {
                advance()
            } else if token.kind == .other && isChar(token, UInt8(ascii: "&")) {
                var span = token.span
                advance()
                if current.kind == .other && isChar(current, UInt8(ascii: "&")) && !current.spaceBefore {
                    span = span.union(current.span)
                    advance()
                }
                diagnose(.unknownOperator(text(span), suggestion: "and"), at: span)
            } else {
                break
            }
            guard let next = parseUnary() else { return nil }
            rest.append(next)
        }
        return ParserState.combine(first, rest, Condition.Kind.and)
    }

    /// Conditions inside parentheses, adjacent ones ANDed.
    mutating func parseConditions() -> Condition? {
        guard let first = parseOr() else { return nil }
        var rest: [Condition] = []
        while !aborted && canStartCondition(current) {
            guard let next = parseOr() else { return nil }
            rest.append(next)
        }
        return ParserState.combine(first, rest, Condition.Kind.and)
    }

    func canStartCondition(_ token: Token) -> Bool {
        switch token.kind {
        case .word: return keyword(token) == nil || keyword(token) == .not
        case .leftParen: return true
        case .op: return isOperator(token, "!")
        default: return false
        }
    }

    /// `first` alone, or `first` and `rest` joined (an array is only built for two or more).
    static func combine(
        _ first: Condition, _ rest: [Condition], _ make: ([Condition]) -> Condition.Kind
    )
        -> Condition
    {
        guard let last = rest.last else { return first }
        return Condition(make([first] + rest), span: first.span.union(last.span))
    }

    mutating func parseUnary() -> Condition? {
        let token = current
        if let keyword = keyword(token) {
            if keyword == .not {
                return parseNot(token)
            }
            if startsComparison(peek(1)) {
                diagnose(.keywordAsField(keyword), at: token.span)
            } else {
                diagnose(.expectedCondition(found: describe(token)), at: token.span)
            }
            return nil
        }
        switch token.kind {
        case .word:
            return parseComparison()
        case .leftParen:
            return nested(at: token) { state in
                state.advance()
                guard let inner = state.parseConditions() else { return nil }
                guard state.current.kind == .rightParen else {
                    let found = state.current
                    state.diagnose(
                        .expectedRightParen, at: found.kind == .end ? state.insertionPoint : found.span,
                        notes: [Diagnostic.Note("to match this '('", span: token.span)])
                    return nil
                }
                let close = state.current
                state.advance()
                return Condition(.parenthesized(inner), span: token.span.union(close.span))
            }
        case .op where isOperator(token, "!"):
            diagnose(.unknownOperator("!", suggestion: "not"), at: token.span)
            return parseNot(token)
        default:
            diagnose(.expectedCondition(found: describe(token)), at: token.span)
            return nil
        }
    }

    mutating func parseNot(_ token: Token) -> Condition? {
        nested(at: token) { state in
            state.advance()
            guard let inner = state.parseUnary() else { return nil }
            return Condition(.not(inner), span: token.span.union(inner.span))
        }
    }

    /// `field op value`, `field in (...)`, `field not in (...)`.
    mutating func parseComparison() -> Condition? {
        let fieldToken = current
        advance()
        let next = current
        let negated = isKeyword(next, .not) && isKeyword(peek(1), .in)
        if negated || isKeyword(next, .in) {
            guard let field = fieldPath(fieldToken) else { return nil }
            if negated { advance() }
            let inToken = current
            advance()
            guard let (values, close) = parseInList(after: inToken) else { return nil }
            let membership = Condition(.membership(field, values), span: fieldToken.span.union(close))
            return negated ? Condition(.not(membership), span: membership.span) : membership
        }
        var op = QueryOperator.equal
        if next.kind == .op {
            if let found = QueryOperator.match(symbol: bytes, next.span) {
                op = found
            } else {
                let opText = text(next)
                diagnose(.unknownOperator(opText, suggestion: ParserState.suggestOperator(opText)), at: next.span)
            }
        } else if next.kind == .word, let found = QueryOperator.match(word: bytes, next.span) {
            op = found
        } else if next.kind == .word, keyword(next) == nil,
            Suggestions.closest(to: text(fieldToken), among: ParserState.clauseWords) == nil,
            let suggestion = ParserState.suggestOperatorWord(text(next))
        {
            diagnose(.unknownOperator(text(next), suggestion: suggestion), at: next.span)
        } else {
            diagnoseMissingOperator(fieldToken)
            return nil
        }
        let field = fieldPath(fieldToken) ?? FieldPath([], span: fieldToken.span)
        advance()
        guard let value = parseValue(after: next) else { return nil }
        checkConditionValue(value)
        return Condition(.comparison(field, op, value), span: fieldToken.span.union(value.span))
    }

    /// A written string compared in a condition cannot hold `"` (the query has no way to write it):
    /// reported now, so a script stops before its first statement runs, as for any other mistake
    /// in its text. A variable's value is checked when the statement runs (`Compiler.conditionValue`).
    mutating func checkConditionValue(_ value: Value) {
        if case .string(let text, _) = value.kind, text.utf8.contains(UInt8(ascii: "\"")) {
            diagnose(.valueContainsDoubleQuote, at: value.span)
        }
    }

    mutating func diagnoseMissingOperator(_ fieldToken: Token) {
        let word = text(fieldToken)
        if !word.contains("."), let suggestion = Suggestions.closest(to: word, among: ParserState.clauseWords) {
            diagnose(.unknownClause(word, suggestion: suggestion), at: fieldToken.span)
        } else {
            diagnose(.expectedOperator(after: word, suggestion: nil), at: .at(fieldToken.span.end))
        }
    }

    /// `( value, ... )` after `in`; the values and the span of `)`.
    mutating func parseInList(after inToken: Token) -> ([Value], SourceSpan)? {
        guard current.kind == .leftParen else {
            diagnose(.expectedLeftParenAfterIn, at: .at(inToken.span.end))
            return nil
        }
        let open = current
        advance()
        if current.kind == .rightParen {
            diagnose(.emptyInList, at: open.span.union(current.span))
            advance()
            return nil
        }
        var values: [Value] = []
        var after = open
        while !aborted {
            guard let value = parseValue(after: after) else {
                skipPastRightParen()
                return nil
            }
            checkConditionValue(value)
            values.append(value)
            if current.kind == .comma {
                after = current
                advance()
                continue
            }
            if current.kind == .rightParen {
                let close = current
                advance()
                return (values, close.span)
            }
            diagnose(
                .expectedCommaOrParenInList, at: current.kind == .end ? insertionPoint : current.span,
                notes: [Diagnostic.Note("to match this '('", span: open.span)])
            skipPastRightParen()
            return nil
        }
        return nil
    }

    mutating func skipPastRightParen() {
        while !atEnd {
            let kind = current.kind
            advance()
            if kind == .rightParen { return }
        }
    }

    /// Words that start a clause or join conditions, for "unknown clause ...; did you mean".
    static let clauseWords = ["order", "limit", "offset", "fields", "expand", "search", "and", "or", "not"]

    /// Common misspellings of operator symbols, then the closest symbol.
    static func suggestOperator(_ text: String) -> String? {
        let aliases = [
            "==": "=", "===": "=", "<>": "!=", "=>": ">=", "=<": "<=", "~=": "=~", "=!": "!=", "!": "!=", "^": "^=",
            "!==": "!=",
        ]
        if let alias = aliases[text] { return alias }
        return Suggestions.closest(to: text, among: QueryOperator.languageOrder.map(\.symbol))
    }

    /// Words people reach for, then the closest API operator word.
    static func suggestOperatorWord(_ text: String) -> String? {
        let aliases = [
            "is": "eq", "equals": "eq", "contains": "co", "like": "mt", "matches": "mt", "startswith": "sw",
            "similar": "sm",
        ]
        if let alias = aliases[text.lowercased()] { return alias }
        return Suggestions.closest(to: text, among: QueryOperator.languageOrder.map(\.rawValue))
    }
}
