// Compiles single conditions of a search into SQL statements selecting the matching ordinals
// (MatchSets reads each into a bitmap and combines them).
//
// Standard fields are columns of `items` (alias `i`); user fields are `SELECT ord FROM vals ...`
// sets, limited to the kinds of value the field holds; ranges on one single-valued user field
// inside an AND can be read as one set. `co`, `mt`, `sm` on name, description and user text use
// the FTS table (`mt` candidates are checked by oceq_mt on the values, `sm` expands to vocabulary
// terms within a few edits); on the other standard text fields they call oceq_co / oceq_mt /
// oceq_sm per row. `ne` is NOT eq. Every predicate yields 0 or 1, never NULL. Parameters are
// numbered (?1, ?2, ...) so pieces can be assembled in any order.

import FoundationEssentials
import OCEQCore

struct SearchCompiler {
    let catalog: IndexCatalog
    let connection: SQLiteConnection
    private(set) var parameters: [SQLValue] = []
    private var aliases = 0

    /// Most vocabulary terms one `sm` word expands to.
    static let maximumFuzzyTerms = 256

    init(catalog: IndexCatalog, connection: SQLiteConnection) {
        self.catalog = catalog
        self.connection = connection
    }

    private mutating func parameter(_ value: SQLValue) -> String {
        parameters.append(value)
        return "?\(parameters.count)"
    }

    private mutating func text(_ s: String) -> String { parameter(.text(s)) }

    private mutating func instant(_ date: CivilDateTime) -> String {
        parameter(.double(Double(date.epochMilliseconds)))
    }

    /// `SELECT ord FROM vals WHERE fid = <the field's id> AND <condition>`.
    private mutating func values(_ field: IndexCatalog.Field, _ condition: String) -> String {
        "SELECT ord FROM vals WHERE fid = \(parameter(.int(field.id))) AND \(condition)"
    }

    // MARK: single conditions

    /// The full-text column and words answering `c` exactly (any of the words in that column),
    /// when the full-text index alone can.
    func fullTextWords(_ c: QueryCondition) -> (column: String, words: [String])? {
        guard c.op == .contains else { return nil }
        let words = TextFolding.searchWords(c.value)
        guard !words.isEmpty else { return nil }
        switch QueryFieldPath(c.field) {
        case .standard(let field):
            guard let column = IndexSchema.ftsColumn(field) else { return nil }
            return (column, words)
        case .user(let name):
            guard let field = catalog.fields["fields." + name], field.textOnly, let column = field.ftsColumn,
                column != catalog.sharedColumn
            else { return nil }
            return (column, words)
        default:
            return nil
        }
    }

    /// A statement selecting the ordinals of the items with `word` in full-text column `column`
    /// (nil: any column, as `default` searches).
    mutating func wordStatement(_ word: String, column: String?) -> String {
        let quoted = TextFolding.ftsQuoted(word)
        return "SELECT rowid FROM fts WHERE fts MATCH \(text(column.map { "{\($0)} : (\(quoted))" } ?? quoted))"
    }

    /// A statement selecting the ordinals (in any order) of the items matching the single
    /// condition `c`, or nil when none can. Throws an `IndexError` for a condition that cannot be
    /// evaluated (an unknown field, an operator the field's kind has no meaning for, a bad value).
    mutating func leafStatement(_ c: QueryCondition) throws -> String? {
        if c.op != .notEqual, case .user(let name) = QueryFieldPath(c.field) {
            return try userSet("fields." + name, c)
        }
        return "SELECT i.ord FROM items i WHERE \(try condition(c, alias: "i"))"
    }

    /// A statement selecting the ordinals of the items matching every condition of `conditions`,
    /// ranges on one single-valued user field with the same `rangeKey`.
    mutating func mergedRangeStatement(_ conditions: [QueryCondition], key: String) -> String {
        let dates = key.hasSuffix("#date")
        guard case .user(let name) = QueryFieldPath(conditions[0].field), let field = catalog.fields["fields." + name]
        else { return "SELECT NULL WHERE 0" }
        var sql =
            values(field, "kind = \(dates ? ValueKind.datetime.rawValue : ValueKind.number.rawValue)")
        for c in conditions {
            let bound =
                dates
                ? Double(CivilDateTime.queryValue(c.value)!.epochMilliseconds) : QueryNumber.parse(c.value)!
            sql += " AND num \(Self.sqlComparison(c.op)) \(parameter(.double(bound)))"
        }
        return sql
    }

    private func anyOf(_ words: [String]) -> String {
        words.map(TextFolding.ftsQuoted).joined(separator: " OR ")
    }

    /// `fields.x#number` or `fields.x#date` for a range condition with one reading on a single-valued
    /// user field; nil otherwise.
    func rangeKey(_ c: QueryCondition) -> String? {
        guard [.greaterThanOrEqual, .greaterThan, .lessThanOrEqual, .lessThan].contains(c.op),
            case .user(let name) = QueryFieldPath(c.field),
            let field = catalog.fields["fields." + name], field.kinds & ValueKind.multivaluedBit == 0
        else { return nil }
        let number = QueryNumber.parse(c.value) != nil && field.has(.number)
        let date = CivilDateTime.queryValue(c.value) != nil && field.has(.datetime)
        if number == date { return nil }
        return "fields." + name + (number ? "#number" : "#date")
    }

    // MARK: conditions

    mutating func condition(_ c: QueryCondition, alias: String) throws -> String {
        if c.op == .notEqual {
            var eq = c
            eq.op = .equal
            return "(NOT \(try condition(eq, alias: alias)))"
        }
        guard let path = QueryFieldPath(c.field) else {
            throw IndexError(message: "unknown field '\(c.field)'", offset: c.offset)
        }
        switch path {
        case .standard(let field):
            return try standard(field, c, alias: alias)
        case .user(let name):
            guard let set = try userSet("fields." + name, c) else { return "0" }
            return "\(alias).ord IN (\(set))"
        case .referenced(let reference, let target):
            guard let field = catalog.fields["fields." + reference], field.has(.reference) else { return "0" }
            let targets: String
            switch target {
            case .standard(let standardField):
                aliases += 1
                let inner = "j\(aliases)"
                targets =
                    "SELECT \(inner).ord FROM items \(inner) WHERE \(try standard(standardField, c, alias: inner))"
            case .user(let name):
                guard let set = try userSet("fields." + name, c) else { return "0" }
                targets = set
            }
            let fid = parameter(.int(field.id))
            return "\(alias).ord IN (SELECT ord FROM vals WHERE fid = \(fid) AND ref IN (\(targets)))"
        }
    }

    private func unsupported(_ c: QueryCondition, _ what: String) -> IndexError {
        IndexError(message: "operator \(c.op.rawValue) cannot be used on \(what) '\(c.field)'", offset: c.offset)
    }

    private func date(_ c: QueryCondition) throws -> CivilDateTime {
        guard let date = CivilDateTime.queryValue(c.value) else {
            throw IndexError(
                message: "'\(c.value)' is not a datetime (use e.g. 2021-04-15 or 2021-04-15T18:20:47.459Z)",
                offset: c.offset)
        }
        return date
    }

    private static func sqlComparison(_ op: QueryOperator) -> String {
        switch op {
        case .greaterThanOrEqual: ">="
        case .greaterThan: ">"
        case .lessThanOrEqual: "<="
        default: "<"
        }
    }

    private mutating func standard(_ field: StandardField, _ c: QueryCondition, alias a: String) throws -> String {
        let column = "\(a).\(field.rawValue)"
        switch field.kind {
        case .text:
            let ftsColumn = IndexSchema.ftsColumn(field)
            switch c.op {
            case .equal, .notEqual:
                return "\(column) = \(text(c.value))"
            case .contains:
                let words = TextFolding.searchWords(c.value)
                guard !words.isEmpty else { return "0" }
                guard let ftsColumn else {
                    return "oceq_co(\(column), \(text(words.joined(separator: " "))))"
                }
                let match = text("{\(ftsColumn)} : (\(anyOf(words)))")
                return "\(a).ord IN (SELECT rowid FROM fts WHERE fts MATCH \(match))"
            case .startsWith:
                return prefix(column: "\(column)_f", prefix: c.value.lowercased(), full: nil)
            case .matches:
                guard let (pattern, match) = phrase(column: ftsColumn, c.value) else { return "0" }
                let check = "oceq_mt(\(column), \(text(pattern)))"
                guard let match else { return check }
                return "(\(a).ord IN (SELECT rowid FROM fts WHERE fts MATCH \(text(match))) AND \(check))"
            case .similar:
                guard let ftsColumn else {
                    let words = TextFolding.searchWords(c.value)
                    guard !words.isEmpty else { return "0" }
                    return "oceq_sm(\(column), \(text(words.joined(separator: " "))))"
                }
                guard let match = try fuzzyMatch(column: ftsColumn, c.value) else { return "0" }
                return "\(a).ord IN (SELECT rowid FROM fts WHERE fts MATCH \(text(match)))"
            case .greaterThanOrEqual, .greaterThan, .lessThanOrEqual, .lessThan:
                throw unsupported(c, "text field")
            }
        case .datetime:
            switch c.op {
            case .equal, .notEqual, .contains:
                let d = try date(c)
                if d.hasTime { return "\(column) IS \(parameter(.int(d.epochMilliseconds)))" }
                return "\(column)_d IS \(text(d.localDate))"
            case .greaterThanOrEqual, .greaterThan, .lessThanOrEqual, .lessThan:
                let d = try date(c)
                let bound = parameter(.int(d.epochMilliseconds))
                return "(\(column) IS NOT NULL AND \(column) \(Self.sqlComparison(c.op)) \(bound))"
            case .startsWith, .matches, .similar:
                throw unsupported(c, "datetime field")
            }
        case .boolean:
            guard c.op == .equal || c.op == .contains else { throw unsupported(c, "boolean field") }
            switch c.value.lowercased() {
            case "true": return "\(column) IS 1"
            case "false": return "\(column) IS 0"
            default:
                throw IndexError(message: "'\(c.value)' is not a boolean (true or false)", offset: c.offset)
            }
        case .multiReference:
            guard c.op == .equal || c.op == .contains else { throw unsupported(c, "reference field") }
            guard let field = catalog.fields[field.rawValue], field.has(.reference) else { return "0" }
            let fid = parameter(.int(field.id))
            // `taxonomies.categories.id` matches directly assigned categories only (kept prefixed).
            let prefix = c.field == "taxonomies.categories.id" ? TaxonomyAssignment.directPrefix : ""
            let ids = (c.op == .equal ? [c.value] : Self.tokens(c.value)).map { text(prefix + $0.lowercased()) }
            return "\(a).ord IN (SELECT ord FROM vals WHERE fid = \(fid) AND fold IN (\(ids.joined(separator: ", "))))"
        }
    }

    /// Case-insensitive prefix test on a folded column, index-friendly (a range) and exact.
    private mutating func prefix(column: String, prefix p: String, full: String?) -> String {
        let length = p.unicodeScalars.count
        if let full, length > IndexSchema.foldLimit {
            let head = String(String.UnicodeScalarView(p.unicodeScalars.prefix(IndexSchema.foldLimit)))
            return "(\(column) = \(text(head)) AND substr(coalesce(\(full), \(column)), 1, \(length)) = \(text(p)))"
        }
        let low = text(p)
        let high = text(p + "\u{10FFFF}")
        return "(\(column) >= \(low) AND \(column) < \(high) AND substr(\(column), 1, \(length)) = \(low))"
    }

    /// The value split on blanks and commas, plus the whole value: the candidates `co` compares
    /// with values that are not text (ids, numbers, dates, booleans).
    static func tokens(_ value: String) -> [String] {
        let parts = value.split { $0 == "," || $0.isWhitespace }.map(String.init)
        var seen: Set<String> = []
        let whole = value.trimmedSpaces
        return (parts + [whole]).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    // MARK: user fields

    /// A `SELECT ord ...` of the items whose user field `name` satisfies `c`, or nil when nothing
    /// can match (an unknown field, no value of a fitting kind, a value with no words).
    private mutating func userSet(_ name: String, _ c: QueryCondition) throws -> String? {
        let field = catalog.fields[name]
        switch c.op {
        case .greaterThanOrEqual, .greaterThan, .lessThanOrEqual, .lessThan:
            let number = QueryNumber.parse(c.value)
            let date = CivilDateTime.queryValue(c.value)
            guard number != nil || date != nil else {
                throw IndexError(
                    message: "operator \(c.op.rawValue) needs a number or a datetime, not '\(c.value)'",
                    offset: c.offset)
            }
            guard let field else { return nil }
            let compare = Self.sqlComparison(c.op)
            var parts: [String] = []
            if let number, field.has(.number) {
                parts.append(
                    values(
                        field, "kind = \(ValueKind.number.rawValue) AND num \(compare) \(parameter(.double(number)))")
                )
            }
            if let date, field.has(.datetime) {
                parts.append(
                    values(field, "kind = \(ValueKind.datetime.rawValue) AND num \(compare) \(instant(date))")
                )
            }
            return union(parts)
        case .equal, .notEqual:
            guard let field else { return nil }
            return equalitySet(field, c.value)
        case .contains:
            guard let field else { return nil }
            return containsSet(field, c.value)
        case .startsWith:
            guard let field, field.has(.text) else { return nil }
            let fid = parameter(.int(field.id))
            let test = prefix(column: "fold", prefix: c.value.lowercased(), full: "full")
            return "SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(ValueKind.text.rawValue) AND \(test)"
        case .matches:
            guard let field, field.has(.text), let column = field.ftsColumn,
                let (pattern, match) = phrase(column: column, c.value)
            else { return nil }
            // `fold IS NOT NULL` (always true for text) lets the partial index vals_fold serve the scan.
            var sql =
                values(field, "fold IS NOT NULL AND kind = \(ValueKind.text.rawValue)")
            if let match { sql += " AND ord IN (SELECT rowid FROM fts WHERE fts MATCH \(text(match)))" }
            return sql + " AND oceq_mt(coalesce(full, fold), \(text(pattern)))"
        case .similar:
            guard let field, field.has(.text), let column = field.ftsColumn,
                let match = try fuzzyMatch(column: column, c.value)
            else { return nil }
            return restricted("SELECT rowid FROM fts WHERE fts MATCH \(text(match))", field, column: column)
        }
    }

    private func union(_ parts: [String]) -> String? {
        parts.isEmpty ? nil : parts.joined(separator: " UNION ALL ")
    }

    /// `eq` on a user field: the folded text (text, boolean, reference id, a date's calendar date),
    /// or the number, or the instant.
    private mutating func equalitySet(_ field: IndexCatalog.Field, _ value: String) -> String? {
        let lower = value.lowercased()
        var parts: [String] = []
        let folded: [ValueKind] = [.text, .boolean, .reference, .datetime]
        if folded.contains(where: field.has) {
            if lower.unicodeScalars.count >= IndexSchema.foldLimit {
                let (head, _) = IndexedValue.folded(value)
                parts.append(values(field, "fold = \(text(head)) AND coalesce(full, fold) = \(text(lower))"))
            } else {
                parts.append(values(field, "fold = \(text(lower))"))
            }
        }
        if let number = QueryNumber.parse(value), field.has(.number) {
            parts.append(
                values(field, "kind = \(ValueKind.number.rawValue) AND num = \(parameter(.double(number)))")
            )
        }
        if let date = CivilDateTime.queryValue(value), field.has(.datetime) {
            if date.hasTime {
                parts.append(
                    values(field, "kind = \(ValueKind.datetime.rawValue) AND num = \(instant(date))")
                )
            } else if date.localDate != lower {
                parts.append(
                    values(field, "fold = \(text(date.localDate)) AND kind = \(ValueKind.datetime.rawValue)")
                )
            }
        }
        return union(parts)
    }

    /// `co` on a user field: any word in its text; any blank- or comma-separated token equal to a
    /// reference id, boolean, number or date.
    private mutating func containsSet(_ field: IndexCatalog.Field, _ value: String) -> String? {
        var parts: [String] = []
        let words = TextFolding.searchWords(value)
        if field.has(.text), let column = field.ftsColumn, !words.isEmpty {
            parts.append(
                restricted(
                    "SELECT rowid FROM fts WHERE fts MATCH \(text("{\(column)} : (\(anyOf(words)))"))", field,
                    column: column))
        }
        var folds: [String] = []
        var numbers: [Double] = []
        var instants: [Int64] = []
        for token in Self.tokens(value) {
            folds.append(token.lowercased())
            if let n = QueryNumber.parse(token) { numbers.append(n) }
            if let d = CivilDateTime.queryValue(token) {
                if d.hasTime { instants.append(d.epochMilliseconds) } else { folds.append(d.localDate) }
            }
        }
        let nonText: [ValueKind] = [.datetime, .boolean, .reference].filter(field.has)
        if !nonText.isEmpty, !folds.isEmpty {
            let kinds = nonText.map { String($0.rawValue) }.joined(separator: ", ")
            let list = folds.map { text($0) }.joined(separator: ", ")
            parts.append(
                values(field, "fold IN (\(list)) AND kind IN (\(kinds))")
            )
        }
        if field.has(.number), !numbers.isEmpty {
            let list = numbers.map { parameter(.double($0)) }.joined(separator: ", ")
            parts.append(
                values(field, "kind = \(ValueKind.number.rawValue) AND num IN (\(list))")
            )
        }
        if field.has(.datetime), !instants.isEmpty {
            let list = instants.map { parameter(.double(Double($0))) }.joined(separator: ", ")
            parts.append(
                values(field, "kind = \(ValueKind.datetime.rawValue) AND num IN (\(list))")
            )
        }
        return union(parts)
    }

    /// A full-text set narrowed to items having the field, when the column is shared.
    private mutating func restricted(_ set: String, _ field: IndexCatalog.Field, column: String) -> String {
        guard column == catalog.sharedColumn else { return set }
        return "SELECT ord FROM vals WHERE fid = \(parameter(.int(field.id))) AND ord IN (\(set))"
    }

    /// `mt`: the pattern for oceq_mt (folded words, wildcards kept) and, when the column has a
    /// full-text index and the pattern has literal parts, an FTS5 expression selecting candidates
    /// (whole words, and the literal head of wildcard words as prefixes). Nil for no words.
    private func phrase(column: String?, _ value: String) -> (pattern: String, match: String?)? {
        let words = TextFolding.searchWords(value, wildcards: true)
        guard !words.isEmpty else { return nil }
        var constraints: [String] = []
        for word in words {
            let head = String(word.prefix { $0 != "*" && $0 != "?" })
            if head == word {
                constraints.append(TextFolding.ftsQuoted(word))
            } else if !head.isEmpty {
                constraints.append(TextFolding.ftsQuoted(head) + "*")
            }
        }
        let pattern = words.joined(separator: " ")
        guard let column, !constraints.isEmpty else { return (pattern, nil) }
        return (pattern, "{\(column)} : (\(constraints.joined(separator: " AND ")))")
    }

    /// `sm`: an FTS5 expression for the column's vocabulary terms within `TextFolding.fuzzyEdits`
    /// edits of a word of the value, or nil when there are none.
    private mutating func fuzzyMatch(column: String, _ value: String) throws -> String? {
        let words = TextFolding.searchWords(value)
        let columnNumber = Int64(column.dropFirst())!
        var terms: [String] = []
        let lookup = try connection.cached(
            "SELECT term FROM terms WHERE col = ?1 AND len BETWEEN ?2 AND ?3 AND oceq_near(term, ?4, ?5) LIMIT ?6")
        for word in words {
            let length = word.unicodeScalars.count
            let edits = TextFolding.fuzzyEdits(forLength: length)
            lookup.reset()
            try lookup.bind([
                .int(columnNumber), .int(Int64(length - edits)), .int(Int64(length + edits)), .text(word),
                .int(Int64(edits)), .int(Int64(Self.maximumFuzzyTerms)),
            ])
            while try lookup.step() {
                if let term = lookup.text(0) { terms.append(term) }
            }
        }
        guard !terms.isEmpty else { return nil }
        return "{\(column)} : (\(anyOf(terms)))"
    }
}
