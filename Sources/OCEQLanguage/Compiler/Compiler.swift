// The compiler: a select statement and an environment in, the parameters of a search out.
//
// - Fields: standard fields (delivery-api.md §5.3) as written, anything else `fields.<name>`.
// - Values: references resolved through the environment; every value is quoted in `q`, so one
//   containing `"` is refused (the API has no escape). Dates are sent in a calendar-year form.
// - Conditions: adjacent conditions and `and` become one group, `or` another, `in (a, b)` becomes
//   `(f eq "a" OR f eq "b")`, `not x` becomes `NOT (x)`; groups of the same kind are flattened.
// - Clauses: `limit` 1–500 and `offset` 0–2^31-1 (checked again here because references are only
//   resolved now), `order` keys joined by `;` with an explicit direction, `fields`/`expand` names
//   mapped like condition fields.
//
// Every problem is collected before the compiler gives up, each with the span of what caused it.
// The result is core's `QueryExpression` (no groups: `CompiledQuery` adds them when it writes `q`).

import OCEQCore

/// Compiles select statements against an environment.
package struct Compiler {
    /// Where `$name`, `$n` and `@n` are looked up.
    package var environment: any CompileEnvironment
    /// The deepest condition accepted (a guard for trees built in code; parsed ones are shallower).
    package var maximumDepth: Int = 1000

    /// A compiler resolving references in `environment`.
    package init(environment: any CompileEnvironment = StaticEnvironment()) {
        self.environment = environment
    }

    /// The query `select` stands for, or every problem found.
    package func compile(_ select: SelectStatement) throws(DiagnosticError) -> CompiledQuery {
        var run = CompilerRun(compiler: self)
        let query = run.compile(select)
        guard run.diagnostics.isEmpty else { throw DiagnosticError(run.diagnostics) }
        return query
    }

    /// The text of a value, references resolved (for `let` and for commands' arguments).
    package func resolve(_ value: Value) throws(DiagnosticError) -> String {
        var run = CompilerRun(compiler: self)
        let text = run.resolve(value)
        guard let text, run.diagnostics.isEmpty else { throw DiagnosticError(run.diagnostics) }
        return text
    }
}

struct CompilerRun {
    let compiler: Compiler
    var diagnostics: [Diagnostic] = []
    var userFields: [String] = []
    var depth = 0
    /// The statement's types under the environment's schema; nil without a schema (nothing is checked).
    var scope: SchemaScope?
    /// Names compared with reference fields and the items they were resolved to.
    var resolved: [ResolvedName] = []
    /// List fields compared with `=`/`!=`, sent as membership (`sentCondition`).
    var listMemberships: [String] = []
    /// Dates in conditions written without a UTC offset.
    var datesWithoutOffset: [String] = []

    init(compiler: Compiler) {
        self.compiler = compiler
    }

    var environment: any CompileEnvironment { compiler.environment }

    mutating func diagnose(_ message: DiagnosticMessage, at span: SourceSpan, notes: [Diagnostic.Note] = []) {
        diagnostics.append(Diagnostic(message, at: span, notes: notes))
    }

    mutating func compile(_ select: SelectStatement) -> CompiledQuery {
        let kind: CompiledQuery.Kind =
            switch select.verb {
            case .list: .list
            case .count: .count
            case .first: .first
            }
        var query = CompiledQuery(kind: kind)
        if let schema = environment.schema { scope = SchemaScope(select, schema: schema, environment: environment) }
        var conditions: [QueryExpression] = []
        var seen = SeenClauses()
        for clause in select.clauses {
            if let keyword = clause.keyword {
                if let first = seen[keyword] {
                    diagnose(
                        .duplicateClause(keyword), at: clause.keywordSpan,
                        notes: [Diagnostic.Note("'\(keyword.rawValue)' is first given here", span: first)])
                }
                seen[keyword] = seen[keyword] ?? clause.keywordSpan
                if !ParserState.allows(select.verb, keyword) {
                    diagnose(.clauseNotAllowed(keyword, select.verb), at: clause.keywordSpan)
                }
            }
            switch clause.kind {
            case .condition(let condition):
                if let compiled = compile(condition) { conditions.append(compiled) }
            case .order(let keys):
                query.orderKeys = keys.filter { checkField($0.field) && checkSortable($0) }.map { key in
                    SortKey(key.field.apiName, key.direction ?? .asc)
                }
            case .limit(let value):
                query.limit = integer(.limit, value)
            case .offset(let value):
                query.offset = integer(.offset, value)
            case .fields(let list):
                query.fields = fieldList(list)
                if query.fields != nil, case .names(let names) = list { checkShownInHits(names) }
            case .expand(let list):
                query.expand = fieldList(list)
            case .search(let value):
                // An empty `default` is no search at all: every item would come back as if it matched.
                let text = resolve(value)
                if let text, text.allSatisfy(\.isWhitespace) {
                    diagnose(.emptySearch, at: value.span)
                } else {
                    query.defaultText = text
                }
            }
        }
        switch select.verb {
        case .list: break
        case .first, .count: query.limit = 1
        }
        query.filter = conditions.isEmpty ? nil : Self.allOf(conditions)
        query.userFields = userFields
        query.resolvedNames = resolved
        query.listMemberships = listMemberships
        query.datesWithoutOffset = datesWithoutOffset
        query.checked = scope != nil
        return query
    }

    mutating func compile(_ condition: Condition) -> QueryExpression? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= compiler.maximumDepth else {
            if depth == compiler.maximumDepth + 1 {
                diagnose(.nestingTooDeep(limit: compiler.maximumDepth), at: condition.span)
            }
            return nil
        }
        switch condition.kind {
        case .comparison(let field, let op, let value):
            let fieldOK = checkField(field)
            guard let text = conditionValue(value), fieldOK, let checked = checkedValue(field, op, value, text) else {
                return nil
            }
            return sentCondition(field, op, checked)
        case .membership(let field, let values):
            let fieldOK = checkField(field) && checkKnown(field)
            guard !values.isEmpty else {
                diagnose(.emptyInList, at: condition.span)
                return nil
            }
            var operands: [QueryExpression] = []
            for value in values {
                if let text = conditionValue(value), fieldOK, let checked = checkedValue(field, .equal, value, text) {
                    operands.append(sentCondition(field, .equal, checked))
                }
            }
            guard fieldOK, operands.count == values.count else { return nil }
            return Self.anyOf(operands)
        case .and(let operands) where operands.isEmpty, .or(let operands) where operands.isEmpty:
            diagnose(.expectedCondition(found: "an empty group"), at: condition.span)
            return nil
        case .and(let operands):
            let compiled = operands.compactMap { compile($0) }
            return compiled.count == operands.count ? Self.allOf(compiled) : nil
        case .or(let operands):
            let compiled = operands.compactMap { compile($0) }
            return compiled.count == operands.count ? Self.anyOf(compiled) : nil
        case .not(let operand):
            return compile(operand).map(QueryExpression.not)
        case .parenthesized(let operand):
            return compile(operand)
        }
    }

    /// `and`, flattening operands that are themselves `and`; a single operand stands alone.
    static func allOf(_ operands: [QueryExpression]) -> QueryExpression {
        var flat: [QueryExpression] = []
        for operand in operands {
            if case .and(let inner) = operand { flat.append(contentsOf: inner) } else { flat.append(operand) }
        }
        return flat.count == 1 ? flat[0] : .and(flat)
    }

    /// `or`, flattening operands that are themselves `or`; a single operand stands alone.
    static func anyOf(_ operands: [QueryExpression]) -> QueryExpression {
        var flat: [QueryExpression] = []
        for operand in operands {
            if case .or(let inner) = operand { flat.append(contentsOf: inner) } else { flat.append(operand) }
        }
        return flat.count == 1 ? flat[0] : .or(flat)
    }

    /// Checks a field built in code the way the parser checks one it reads, and records user fields.
    mutating func checkField(_ field: FieldPath) -> Bool {
        guard field.isValid else {
            diagnose(.invalidFieldName(field.text), at: field.span)
            return false
        }
        if !field.isStandard && !field.isPrefixed && !userFields.contains(field.text) {
            userFields.append(field.text)
        }
        return true
    }

    /// The names of a `fields` or `expand` clause, joined for the API (each one field: the parser and
    /// `readFieldList` refuse a path, `isPath`).
    mutating func fieldList(_ list: FieldList) -> String? {
        switch list {
        case .all: return "all"
        case .names(let names):
            var parts: [String] = []
            for name in names where checkField(name) && checkKnown(name) { parts.append(name.apiName) }
            return parts.count == names.count && !parts.isEmpty ? parts.joined(separator: ",") : nil
        }
    }

    /// A value for `q`: resolved, and free of `"`.
    mutating func conditionValue(_ value: Value) -> String? {
        guard let text = resolve(value) else { return nil }
        if case .date(let date) = value.kind, date.offsetMinutes == nil, !datesWithoutOffset.contains(text) {
            datesWithoutOffset.append(text)
        }
        if text.utf8.contains(UInt8(ascii: "\"")) {
            diagnose(.valueContainsDoubleQuote, at: value.span)
            return nil
        }
        return text
    }

    mutating func integer(_ keyword: Keyword, _ value: Value) -> Int? {
        guard let text = resolve(value) else { return nil }
        switch ClauseRules.integer(keyword, text) {
        case .value(let number): return number
        case .problem(let message):
            diagnose(message, at: value.span)
            return nil
        }
    }

    mutating func resolve(_ value: Value) -> String? {
        switch value.kind {
        case .string(let text, _), .bareword(let text), .number(let text):
            return text
        case .date(let date):
            return date.canonicalText
        case .variable(let name):
            switch environment.variable(name) {
            case .value(let text): return text
            case .notAValue(let holds):
                diagnose(.variableNotAValue(name, holds: holds), at: value.span)
            case .undefined:
                let suggestion = Suggestions.closest(to: name, among: environment.variableNames)
                diagnose(.unknownVariable(name, suggestion: suggestion), at: value.span)
            }
            return nil
        case .argument(let number):
            guard (1...9).contains(number) else {
                diagnose(.argumentOutOfRange("$\(number)"), at: value.span)
                return nil
            }
            guard let text = environment.argument(number) else {
                diagnose(.argumentNotGiven(number, given: environment.argumentCount), at: value.span)
                return nil
            }
            return text
        case .row(let number):
            switch environment.row(number) {
            case .id(let id): return id
            case .noListing: diagnose(.noListing(number), at: value.span)
            case .outOfRange(let rows): diagnose(.rowOutOfRange(number, rows: rows), at: value.span)
            }
            return nil
        }
    }
}
