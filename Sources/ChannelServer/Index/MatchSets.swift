// Evaluates `q` and `default` to the set of matching ordinals (OrdinalSet).
//
// Each condition is one SQL statement (SearchCompiler.leafStatement, the same predicate the
// single-statement compiler emits) read into a bitmap once and kept in LeafSets; AND, OR and NOT
// are bitmap operations. `co` answered by the full-text index, and `default`, are the union of
// one set per word, so `name co "a b"` and `name co "b c"` share the set of `b`. Ranges on one
// single-valued user field inside an AND are one statement (as the compiler merges them): read
// alone, `fields.rank ge "10"` would read nearly every value; when the field's sort ranks are
// at hand (they keep each numeric value) a range is a slice of the field's order instead. `ne` is the complement of `eq`
// (every leaf is true or false, never unknown). Conditions are evaluated depth first in the
// written order, ranges first within an AND, so the first invalid condition is the one reported.

import OCEQCore

/// The match set of one search, built from kept per-condition sets.
struct MatchSets {
    let catalog: IndexCatalog
    let connection: SQLiteConnection
    let leaves: LeafSets
    let itemCount: Int
    /// The sort ranks of a field (loaded on first use), or nil when it is not sortable.
    let sortRanks: (String) throws -> SortRanks?

    /// The items matching `query` AND `defaultText`. Throws `IndexError` for a query that cannot
    /// be evaluated.
    func matches(query: QueryExpression?, defaultText: String?) throws -> OrdinalSet {
        var result = try query.map { try evaluate($0) } ?? OrdinalSet.all(capacity: itemCount)
        if let defaultText, !TextFolding.words(defaultText).isEmpty {
            let words = TextFolding.searchWords(defaultText)
            if words.isEmpty { return OrdinalSet(capacity: itemCount) }
            result.formIntersection(try anyWord(words, column: nil))
        }
        return result
    }

    private func evaluate(_ expression: QueryExpression) throws -> OrdinalSet {
        switch expression {
        case .group(let inner):
            return try evaluate(inner)
        case .verbatim:
            throw IndexError(message: "unparsed query text", offset: 0)
        case .condition(let c):
            return try condition(c)
        case .not(let inner):
            var set = try evaluate(inner)
            set.formComplement()
            return set
        case .or(let list):
            var set = OrdinalSet(capacity: itemCount)
            for operand in list { set.formUnion(try evaluate(operand)) }
            return set
        case .and(let list):
            return try conjunction(list)
        }
    }

    /// An AND list, ranges on one single-valued user field read as one statement.
    private func conjunction(_ list: [QueryExpression]) throws -> OrdinalSet {
        var compiler = SearchCompiler(catalog: catalog, connection: connection)
        var ranges: [String: [QueryCondition]] = [:]
        var others: [QueryExpression] = []
        for expression in list.map(\.ungrouped) {
            if case .condition(let c) = expression, let key = compiler.rangeKey(c) {
                ranges[key, default: []].append(c)
            } else {
                others.append(expression)
            }
        }
        var result = OrdinalSet.all(capacity: itemCount)
        for (key, conditions) in ranges.sorted(by: { $0.key < $1.key }) {
            if let set = try rangeInMemory(conditions, dates: key.hasSuffix("#date")) {
                result.formIntersection(set)
                continue
            }
            if conditions.count == 1 {
                others.append(.condition(conditions[0]))
                continue
            }
            result.formIntersection(
                try leaves.set(Self.rangeSetKey(conditions)) {
                    try read(compiler.mergedRangeStatement(conditions, key: key), compiler)
                })
            compiler = SearchCompiler(catalog: catalog, connection: connection)
        }
        // Every operand is evaluated even once the result is empty, so an invalid condition
        // anywhere in the query is reported.
        for operand in others { result.formIntersection(try evaluate(operand)) }
        return result
    }

    /// Ranges on one single-valued user field (one `rangeKey`) from the field's sort ranks, which
    /// keep each numeric value: a slice of the field's order. Nil when the field has no ranks.
    private func rangeInMemory(_ conditions: [QueryCondition], dates: Bool) throws -> OrdinalSet? {
        guard let ranks = try sortRanks(conditions[0].field), ranks.keepsNumbers,
            let bounds = Self.bounds(conditions, dates: dates)
        else { return nil }
        let key = Self.rangeSetKey(conditions)
        if let kept = leaves.kept(key) { return kept }
        guard let set = ranks.ordinals(kind: dates ? .datetime : .number, within: bounds, capacity: itemCount)
        else { return nil }
        // A wide range takes a pass over most items to build and is asked again and again
        // (`published ge D`); a narrower one is quick to build and seldom asked twice (keeping
        // each `rank ge A AND rank lt B` would push common conditions out of the budget).
        if set.count > itemCount / 4 { leaves.keep(key, set) }
        return set
    }

    /// The bounds of range conditions as numbers (dates as epoch milliseconds); nil when one is
    /// not of that kind.
    static func bounds(_ conditions: [QueryCondition], dates: Bool) -> [(op: QueryOperator, bound: Double)]? {
        var bounds: [(op: QueryOperator, bound: Double)] = []
        for c in conditions {
            guard
                let bound = dates
                    ? CivilDateTime.queryValue(c.value).map({ Double($0.epochMilliseconds) })
                    : QueryNumber.parse(c.value)
            else { return nil }
            bounds.append((c.op, bound))
        }
        return bounds
    }

    /// The `LeafSets` key of the ranges `conditions` (one field's, ANDed), read either way.
    private static func rangeSetKey(_ conditions: [QueryCondition]) -> String {
        "range\u{0}"
            + conditions.map { "\($0.field)\u{0}\($0.op.rawValue)\u{0}\($0.value)" }.joined(separator: "\u{0}")
    }

    private func condition(_ c: QueryCondition) throws -> OrdinalSet {
        if c.op == .notEqual {
            var equal = c
            equal.op = .equal
            var set = try condition(equal)
            set.formComplement()
            return set
        }
        var compiler = SearchCompiler(catalog: catalog, connection: connection)
        if let key = compiler.rangeKey(c), let set = try rangeInMemory([c], dates: key.hasSuffix("#date")) {
            return set
        }
        if let (column, words) = compiler.fullTextWords(c) { return try anyWord(words, column: column) }
        let key = "q\u{0}\(c.field)\u{0}\(c.op.rawValue)\u{0}\(c.value)"
        return try leaves.set(key) {
            guard let sql = try compiler.leafStatement(c) else { return OrdinalSet(capacity: itemCount) }
            return try read(sql, compiler)
        }
    }

    /// The items with any of `words` in full-text column `column` (nil: any column).
    private func anyWord(_ words: [String], column: String?) throws -> OrdinalSet {
        var result = OrdinalSet(capacity: itemCount)
        for word in words {
            let set = try leaves.set("w\u{0}\(column ?? "*")\u{0}\(word)") {
                var compiler = SearchCompiler(catalog: catalog, connection: connection)
                let sql = compiler.wordStatement(word, column: column)
                return try read(sql, compiler)
            }
            if words.count == 1 { return set }
            result.formUnion(set)
        }
        return result
    }

    /// The ordinals a statement selects, with the compiler's parameters.
    private func read(_ sql: String, _ compiler: SearchCompiler) throws -> OrdinalSet {
        let statement = try connection.cached(sql)
        defer { statement.reset() }
        try statement.bind(compiler.parameters)
        var set = OrdinalSet(capacity: itemCount)
        while try statement.step() {
            let ord = statement.int64(0)
            if ord >= 0, ord < itemCount { set.insert(Int(ord)) }
        }
        return set
    }
}
