// select := ('list' | 'count' | 'first') clause*
// clause := condition | 'order' ['by'] sort (',' sort)* | 'limit' INT | 'offset' INT
//         | 'fields' ('all' | name (',' name)*) | 'expand' ('all' | name (',' name)*) | 'search' value
//
// Clauses may come in any order, conditions between them included; each clause keyword at most
// once. `count` takes only conditions and `search`; `first` takes no `limit`.

import OCEQCore

extension ParserState {
    /// `list`/`count`/`first` and its clauses, up to the end of the statement.
    mutating func parseSelect(verb: SelectVerb) -> SelectStatement? {
        let verbToken = current
        advance()
        let before = diagnostics.count
        var clauses: [Clause] = []
        var seen = SeenClauses()
        while !atEnd && !aborted {
            let token = current
            switch token.kind {
            case .word:
                guard let keyword = keyword(token) else {
                    // SQL's `where` before the conditions (a field named `where` is followed by
                    // its operator): one error, then the conditions are checked as if it were gone.
                    if isSQLWhere(token) {
                        diagnose(.sqlWhere(text(token)), at: token.span)
                        advance()
                        continue
                    }
                    parseConditionClause(into: &clauses)
                    continue
                }
                switch keyword {
                case .order, .limit, .offset, .fields, .expand, .search:
                    if let first = seen[keyword] {
                        diagnose(
                            .duplicateClause(keyword), at: token.span,
                            notes: [Diagnostic.Note("'\(keyword.rawValue)' is first given here", span: first)])
                    } else {
                        seen[keyword] = token.span
                    }
                    if !ParserState.allows(verb, keyword) {
                        diagnose(.clauseNotAllowed(keyword, verb), at: token.span)
                    }
                    if let clause = parseClause(keyword) {
                        clauses.append(clause)
                    } else {
                        recoverToClause()
                    }
                case .not:
                    parseConditionClause(into: &clauses)
                case .and, .or:
                    diagnose(.joinWithoutLeftOperand(keyword), at: token.span)
                    advance()
                case .in, .by, .asc, .desc, .all:
                    diagnose(.unexpected(describe(token)), at: token.span)
                    advance()
                }
            case .leftParen:
                parseConditionClause(into: &clauses)
            case .op where isOperator(token, "!"):
                parseConditionClause(into: &clauses)
            case .rightParen:
                diagnose(.unexpected(describe(token)), at: token.span)
                advance()
            case .pipe:
                // A shell habit: one error, and what follows the pipe (another command) is not read as
                // conditions.
                diagnose(.pipeInStatement, at: token.span)
                pos = limit
            default:
                diagnose(.expectedCondition(found: describe(token)), at: token.span)
                advance()
            }
        }
        guard diagnostics.count == before, !aborted else { return nil }
        let end = clauses.last?.span.end ?? verbToken.span.end
        return SelectStatement(
            verb: verb, clauses: clauses, span: SourceSpan(start: verbToken.span.start, end: end),
            verbSpan: verbToken.span)
    }

    static func allows(_ verb: SelectVerb, _ keyword: Keyword) -> Bool {
        switch verb {
        case .list: return true
        case .first: return keyword != .limit
        case .count: return keyword == .search
        }
    }

    mutating func parseConditionClause(into clauses: inout [Clause]) {
        if let condition = parseOr() {
            clauses.append(Clause(.condition(condition), span: condition.span))
        } else {
            recoverToClause()
        }
    }

    /// Skips to the next clause keyword, so that later clauses are still checked.
    mutating func recoverToClause() {
        while !atEnd && !aborted {
            if let keyword = keyword(current), keyword.startsClause { return }
            advance()
        }
    }

    mutating func parseClause(_ keyword: Keyword) -> Clause? {
        let keywordToken = current
        advance()
        let kind: Clause.Kind?
        switch keyword {
        case .order:
            kind = parseOrder(keywordToken).map(Clause.Kind.order)
        case .limit, .offset:
            skipOperatorAfter(keyword)
            kind = parseCount(keyword, keywordToken).map { keyword == .limit ? Clause.Kind.limit($0) : .offset($0) }
        case .fields, .expand:
            skipOperatorAfter(keyword)
            kind = parseFieldList(after: keyword).map { keyword == .fields ? Clause.Kind.fields($0) : .expand($0) }
        case .search:
            skipOperatorAfter(keyword)
            kind = parseValue(after: keywordToken).map(Clause.Kind.search)
        default:
            kind = nil
        }
        guard let kind else { return nil }
        let end = pos > 0 ? tokens[pos - 1].span.end : keywordToken.span.end
        return Clause(kind, span: SourceSpan(start: keywordToken.span.start, end: end), keywordSpan: keywordToken.span)
    }

    /// `limit=5`: reports the operator and carries on as if it were not there.
    mutating func skipOperatorAfter(_ keyword: Keyword) {
        if current.kind == .op {
            diagnose(.keywordTakesNoOperator(keyword), at: current.span)
            advance()
        }
    }

    mutating func parseOrder(_ keywordToken: Token) -> [OrderKey]? {
        if current.kind == .op {
            diagnose(.keywordAsField(.order), at: keywordToken.span)
            return nil
        }
        var after = "order"
        if isKeyword(current, .by) {
            after = text(current)
            advance()
        }
        var keys: [OrderKey] = []
        var failed = false
        while true {
            let token = current
            guard token.kind == .word, keyword(token) == nil else {
                diagnose(.expectedFieldName(after: after), at: insertionPoint)
                return nil
            }
            advance()
            guard let field = fieldPath(token) else { return nil }
            // OCM does not sort on the fields of referenced items, and ignores a key it cannot sort on.
            if field.isPath {
                diagnose(.orderByPath(field.text), at: token.span)
                return nil
            }
            var key = OrderKey(field: field)
            let next = current
            if next.kind == .word {
                if let keyword = keyword(next), keyword == .asc || keyword == .desc {
                    key.direction = keyword == .asc ? .asc : .desc
                    key.span = field.span.union(next.span)
                    advance()
                } else if keyword(next) == nil, !startsComparison(peek(1)),
                    let suggestion = Suggestions.closest(to: text(next), among: ["asc", "desc"])
                {
                    diagnose(.unknownSortDirection(text(next), suggestion: suggestion), at: next.span)
                    advance()
                    failed = true
                }
            }
            keys.append(key)
            guard current.kind == .comma else { break }
            after = ","
            advance()
        }
        return failed ? nil : keys
    }

    /// `token` is SQL's `where` (any case) and not a field of that name: no operator, `in` or
    /// `not in` follows it.
    func isSQLWhere(_ token: Token) -> Bool {
        guard token.kind == .word, token.span.length == 5, text(token).lowercased() == "where" else { return false }
        let next = peek(1)
        return isKeyword(next, .not) ? !isKeyword(peek(2), .in) : !startsComparison(next)
    }

    /// True when `token` can follow a field in a condition.
    func startsComparison(_ token: Token) -> Bool {
        token.kind == .op || isKeyword(token, .in) || isKeyword(token, .not)
            || (token.kind == .word && QueryOperator.match(word: bytes, token.span) != nil)
    }

    mutating func parseCount(_ keyword: Keyword, _ keywordToken: Token) -> Value? {
        guard let value = parseValue(after: keywordToken) else { return nil }
        switch value.kind {
        case .number(let text):
            if let problem = ClauseRules.check(keyword, text) {
                diagnose(problem, at: value.span)
                return nil
            }
            return value
        case .variable, .argument, .row:
            return value
        default:
            diagnose(.integerExpected(keyword), at: value.span)
            return nil
        }
    }

    mutating func parseFieldList(after keyword: Keyword) -> FieldList? {
        if isKeyword(current, .all) {
            advance()
            return .all
        }
        var names: [FieldPath] = []
        var after = keyword.rawValue
        while true {
            let token = current
            guard token.kind == .word, self.keyword(token) == nil else {
                diagnose(.expectedFieldName(after: after), at: insertionPoint)
                return nil
            }
            advance()
            guard let field = fieldPath(token) else { return nil }
            // A name, not a path into a referenced item: found here, before a script runs.
            if field.isPath {
                diagnose(.pathInFieldList(field.text, clause: keyword.rawValue), at: token.span)
                return nil
            }
            names.append(field)
            guard current.kind == .comma else { break }
            after = ","
            advance()
        }
        return .names(names)
    }

    /// The field path spelled by a word token, or a diagnostic.
    mutating func fieldPath(_ token: Token) -> FieldPath? {
        let field = FieldPath(text(token), span: token.span)
        guard field.isValid else {
            diagnose(.invalidFieldName(field.text), at: token.span)
            return nil
        }
        return field
    }
}

/// The checks on `limit` and `offset`, shared by the parser (literals) and the compiler (resolved
/// references).
enum ClauseRules {
    static let maximumOffset = Int(Int32.max)

    /// The problem with `text` as the value of `keyword`, or nil.
    static func check(_ keyword: Keyword, _ text: String) -> DiagnosticMessage? {
        switch integer(keyword, text) {
        case .value: return nil
        case .problem(let message): return message
        }
    }

    /// `text` as the value of `keyword`: a whole number in range.
    static func integer(_ keyword: Keyword, _ text: String) -> Checked {
        let utf8 = Array(text.utf8)
        var index = 0
        let negative = utf8.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < utf8.count,
            utf8[index...].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return .problem(.integerExpected(keyword)) }
        var value = 0
        var overflow = false
        for byte in utf8[index...] {
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if o1 || o2 {
                overflow = true
                break
            }
            value = plus
        }
        if negative { value = -value }
        if keyword == .limit {
            guard !overflow, (1...500).contains(value) else { return .problem(.limitOutOfRange(text)) }
        } else {
            guard !overflow, (0...maximumOffset).contains(value) else { return .problem(.offsetOutOfRange(text)) }
        }
        return .value(value)
    }

    /// A number in range, or what is wrong with it.
    enum Checked {
        case value(Int)
        case problem(DiagnosticMessage)
    }
}
