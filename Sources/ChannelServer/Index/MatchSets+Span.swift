// The stretch of a sort order that holds every match of a search.
//
// A page ordered by one key is read by walking the key's order until the page is full; when the
// query bounds that same field (`name sw "valley"` ordered by name, `fields.rank ge 10 AND
// fields.rank lt 20` ordered by rank) its matches lie in one stretch of the order, which may be
// anywhere in it. Walking from the start would pass over every item before the stretch (and give
// up, then gather and sort every match: at 1 000 000 items the slowest searches of a varied load).
// The span found here starts the walk at the stretch and ends it there.
//
// Only conditions ANDed at the top level bound the span (an OR or a NOT may let matches out):
// a prefix (`sw`) on a standard text field, found by binary search over the order reading each
// probed item's folded value (about 20 reads at 1 000 000 items), and ranges on a single-valued
// user field, from the values its ranks keep. The span is a superset: the walk still tests every
// item against the matches.

import OCEQCore

extension MatchSets {
    /// The positions of `ranks.order` (the order of `field`) outside which no item matching
    /// `query` lies; nil when the query does not bound the field.
    func span(of query: QueryExpression?, field: String, ranks: SortRanks) throws -> Range<Int>? {
        guard let query, let path = QueryFieldPath(field) else { return nil }
        var span: Range<Int>?
        func narrow(_ other: Range<Int>) {
            guard let current = span else { return span = other }
            let lower = max(current.lowerBound, other.lowerBound)
            span = lower..<max(lower, min(current.upperBound, other.upperBound))
        }
        var ranges: [String: [QueryCondition]] = [:]
        let compiler = SearchCompiler(catalog: catalog, connection: connection)
        for c in Self.conjuncts(query) where QueryFieldPath(c.field) == path {
            if c.op == .startsWith, case .standard(let standard) = path, standard.kind == .text, !c.value.isEmpty {
                narrow(try prefixSpan(column: "\(standard.rawValue)_f", prefix: c.value.lowercased(), ranks: ranks))
            } else if let key = compiler.rangeKey(c) {
                ranges[key, default: []].append(c)
            }
        }
        for (key, conditions) in ranges {
            let dates = key.hasSuffix("#date")
            if let bounds = Self.bounds(conditions, dates: dates),
                let positions = ranks.positions(kind: dates ? .datetime : .number, within: bounds)
            {
                narrow(positions)
            }
        }
        return span
    }

    /// The conditions a match must pass: the query's own, or those of its top-level AND (nested
    /// ANDs included).
    static func conjuncts(_ query: QueryExpression) -> [QueryCondition] {
        switch query.ungrouped {
        case .condition(let c): return [c]
        case .and(let operands): return operands.flatMap(conjuncts)
        default: return []
        }
    }

    /// The positions whose folded value (`column`, as the text ranks order it, in SQLite's byte
    /// order) starts with `prefix`, and perhaps a few more: from the first value at or after it
    /// to the first at or after `prefix` + U+10FFFF, as the search reads the prefix.
    private func prefixSpan(column: String, prefix: String, ranks: SortRanks) throws -> Range<Int> {
        let statement = try connection.cached("SELECT \(column) FROM items WHERE ord = ?1")
        defer { statement.reset() }
        func atLeast(_ bound: String) throws -> Int {
            try ranks.firstPosition { ord in
                statement.reset()
                try statement.bind([.int(Int64(ord))])
                guard try statement.step() else { return true }
                return !(statement.text(0) ?? "").utf8.lexicographicallyPrecedes(bound.utf8)
            }
        }
        let start = try atLeast(prefix)
        return start..<max(start, try atLeast(prefix + "\u{10FFFF}"))
    }
}
