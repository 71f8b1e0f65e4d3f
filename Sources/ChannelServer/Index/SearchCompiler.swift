import Foundation

// Compiles a QueryExpression into one SQL predicate over `items` (alias `i`).
//
// Every leaf yields 0 or 1, never NULL, so NOT is plain SQL NOT. Standard fields are columns of
// `items`; user fields are `ord IN (SELECT ord FROM vals ...)` sets; text operators go through
// the FTS5 table (`co`: any word, `mt`: FTS candidates checked by oceq_mt, `sm`: vocabulary terms
// within a few edits, found in `terms` with oceq_near). `ne` is NOT eq for every field.
// SQLite's limits shape the text: AND/OR lists are joined flat in runs of 32 (expression depth),
// and parts nested deeper than a few levels move into common table expressions (parser stack).
// Parameters are numbered (?1, ?2, ...) so pieces can be assembled in any order.

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

    mutating func parameter(_ value: SQLValue) -> String {
        parameters.append(value)
        return "?\(parameters.count)"
    }

    mutating func text(_ s: String) -> String { parameter(.text(s)) }

    // MARK: expressions

    /// Common table expressions the predicate refers to (deeply nested parts), in dependency order.
    private(set) var commonTables: [String] = []

    /// Boolean nesting levels emitted inline before a part moves into its own common table
    /// expression: SQLite's parser stack (100 entries) overflows on deeply nested parentheses.
    static let inlineDepth = 6
    /// Operands joined flat by AND/OR before they are grouped, bounding both the expression tree
    /// depth (SQLite allows 1000) and the parenthesis nesting.
    static let flatListLength = 32

    /// The whole statement: matching ordinals in export order.
    mutating func statement(_ predicates: [String]) -> String {
        let with = commonTables.isEmpty ? "" : "WITH \(commonTables.joined(separator: ", ")) "
        return "\(with)SELECT i.ord FROM items i WHERE \(predicates.joined(separator: " AND ")) ORDER BY i.ord"
    }

    mutating func predicate(_ expression: QueryExpression, alias: String = "i", depth: Int = 0) throws -> String {
        if case .condition(let condition) = expression { return try self.condition(condition, alias: alias) }
        if depth >= Self.inlineDepth {
            aliases += 1
            let name = "q\(aliases)"
            let inner = "h\(aliases)"
            let body = try predicate(expression, alias: inner, depth: 0)
            commonTables.append("\(name)(ord) AS (SELECT \(inner).ord FROM items \(inner) WHERE \(body))")
            return "\(alias).ord IN \(name)"
        }
        switch expression {
        case .condition:
            fatalError("handled above")
        case .and(let list):
            return grouped(try list.map { try predicate($0, alias: alias, depth: depth + 1) }, "AND")
        case .or(let list):
            return grouped(try list.map { try predicate($0, alias: alias, depth: depth + 1) }, "OR")
        case .not(let inner):
            return "(NOT \(try predicate(inner, alias: alias, depth: depth + 1)))"
        }
    }

    /// `(a OP b OP ...)` in flat runs of `flatListLength`, the runs themselves grouped the same way.
    private func grouped(_ parts: [String], _ op: String) -> String {
        if parts.count == 1 { return parts[0] }
        if parts.count <= Self.flatListLength { return "(\(parts.joined(separator: " \(op) ")))" }
        var runs: [String] = []
        var start = 0
        while start < parts.count {
            let end = min(start + Self.flatListLength, parts.count)
            runs.append(grouped(Array(parts[start..<end]), op))
            start = end
        }
        return grouped(runs, op)
    }

    /// The `default` parameter: any of its words in name, description or a user text field.
    /// Nil when the text has no words at all; a predicate matching nothing when it has only stop
    /// words.
    mutating func defaultText(_ value: String, alias: String = "i") -> String? {
        guard !TextFolding.words(value).isEmpty else { return nil }
        let words = TextFolding.searchWords(value)
        guard !words.isEmpty else { return "0" }
        let match = "- {\(catalog.nonDefaultColumns.joined(separator: " "))} : (\(anyOf(words)))"
        return "\(alias).ord IN (SELECT rowid FROM fts WHERE fts MATCH \(text(match)))"
    }

    private func anyOf(_ words: [String]) -> String {
        words.map(TextFolding.ftsQuoted).joined(separator: " OR ")
    }

    // MARK: conditions

    mutating func condition(_ c: QueryCondition, alias: String) throws -> String {
        if c.op == .ne {
            var eq = c
            eq.op = .eq
            return "(NOT \(try condition(eq, alias: alias)))"
        }
        guard let path = FieldPath(c.field) else {
            throw IndexError(message: "unknown field '\(c.field)'", offset: c.offset)
        }
        switch path {
        case .standard(let field):
            return try standard(field, c, alias: alias)
        case .user(let name):
            guard let set = try userSet("fields." + name, c) else { return "0" }
            return "\(alias).ord IN (\(set))"
        case .referenced(let reference, let target):
            guard let field = catalog.fields["fields." + reference] else { return "0" }
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

    private func date(_ c: QueryCondition) throws -> QueryDateTime {
        guard let date = QueryDateTime.parse(c.value) else {
            throw IndexError(
                message: "'\(c.value)' is not a datetime (use e.g. 2021-04-15 or 2021-04-15T18:20:47.459Z)",
                offset: c.offset)
        }
        return date
    }

    private static func sqlComparison(_ op: QueryOperator) -> String {
        switch op {
        case .ge: ">="
        case .gt: ">"
        case .le: "<="
        default: "<"
        }
    }

    mutating func standard(_ field: StandardField, _ c: QueryCondition, alias a: String) throws -> String {
        let column = "\(a).\(field.rawValue)"
        switch field.kind {
        case .text:
            switch c.op {
            case .eq, .ne:
                return "\(column) = \(text(c.value))"
            case .co:
                let words = TextFolding.searchWords(c.value)
                guard !words.isEmpty else { return "0" }
                let match = "{\(IndexSchema.ftsColumn(field))} : (\(anyOf(words)))"
                return "\(a).ord IN (SELECT rowid FROM fts WHERE fts MATCH \(text(match)))"
            case .sw:
                return prefix(column: "\(column)_f", prefix: c.value.lowercased(), full: nil)
            case .mt:
                guard let set = phraseSet(column: IndexSchema.ftsColumn(field), c.value) else { return "0" }
                return "\(a).ord IN (\(set))"
            case .sm:
                guard let set = try fuzzySet(column: IndexSchema.ftsColumn(field), c.value) else { return "0" }
                return "\(a).ord IN (\(set))"
            case .ge, .gt, .le, .lt:
                throw unsupported(c, "text field")
            }
        case .datetime:
            switch c.op {
            case .eq, .ne, .co:
                let d = try date(c)
                if d.hasTime { return "\(column) IS \(parameter(.int(d.epochMilliseconds)))" }
                return "\(column)_d IS \(text(d.localDate))"
            case .ge, .gt, .le, .lt:
                let d = try date(c)
                let bound = parameter(.int(d.epochMilliseconds))
                return "(\(column) IS NOT NULL AND \(column) \(Self.sqlComparison(c.op)) \(bound))"
            case .sw, .mt, .sm:
                throw unsupported(c, "datetime field")
            }
        case .boolean:
            guard c.op == .eq || c.op == .co else { throw unsupported(c, "boolean field") }
            switch c.value.lowercased() {
            case "true": return "\(column) IS 1"
            case "false": return "\(column) IS 0"
            default:
                throw IndexError(message: "'\(c.value)' is not a boolean (true or false)", offset: c.offset)
            }
        case .multiReference:
            guard let field = catalog.fields[field.rawValue] else { return "0" }
            let fid = parameter(.int(field.id))
            switch c.op {
            case .eq, .ne:
                return "\(a).ord IN (SELECT ord FROM vals WHERE fid = \(fid) AND fold = \(text(c.value.lowercased())))"
            case .co:
                let ids = Self.tokens(c.value).map { text($0.lowercased()) }
                return
                    "\(a).ord IN (SELECT ord FROM vals WHERE fid = \(fid) AND fold IN (\(ids.joined(separator: ", "))))"
            default:
                throw unsupported(c, "reference field")
            }
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
    /// with non-text values (ids, numbers, dates).
    static func tokens(_ value: String) -> [String] {
        let parts = value.split { $0 == "," || $0.isWhitespace }.map(String.init)
        var seen: Set<String> = []
        return (parts + [value.trimmingCharacters(in: .whitespaces)]).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    // MARK: user fields

    /// A `SELECT ord ...` of the items whose user field `name` satisfies `c`, or nil when nothing
    /// can match (an unknown field, a value with no words).
    mutating func userSet(_ name: String, _ c: QueryCondition) throws -> String? {
        let field = catalog.fields[name]
        let kinds = (
            number: ValueKind.number.rawValue, date: ValueKind.datetime.rawValue, text: ValueKind.text.rawValue
        )
        switch c.op {
        case .ge, .gt, .le, .lt:
            let number = QueryNumber.parse(c.value)
            let date = QueryDateTime.parse(c.value)
            guard number != nil || date != nil else {
                throw IndexError(
                    message: "operator \(c.op.rawValue) needs a number or a datetime, not '\(c.value)'",
                    offset: c.offset)
            }
            guard let field else { return nil }
            let compare = Self.sqlComparison(c.op)
            var parts: [String] = []
            if let number {
                let fid = parameter(.int(field.id))
                parts.append(
                    "SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(kinds.number) AND num \(compare) \(parameter(.double(number)))"
                )
            }
            if let date {
                let fid = parameter(.int(field.id))
                let bound = parameter(.double(Double(date.epochMilliseconds)))
                parts.append(
                    "SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(kinds.date) AND num \(compare) \(bound)")
            }
            return parts.joined(separator: " UNION ALL ")
        case .eq, .ne:
            guard let field else { return nil }
            return equalitySet(field, c.value)
        case .co:
            guard let field else { return nil }
            var parts: [String] = []
            let words = TextFolding.searchWords(c.value)
            if let column = field.ftsColumn, !words.isEmpty {
                parts.append(textSet(field, column: column, match: anyOf(words)))
            }
            var folds: [String] = []
            var numbers: [Double] = []
            var instants: [Int64] = []
            for token in Self.tokens(c.value) {
                folds.append(token.lowercased())
                if let n = QueryNumber.parse(token) { numbers.append(n) }
                if let d = QueryDateTime.parse(token) {
                    if d.hasTime { instants.append(d.epochMilliseconds) } else { folds.append(d.localDate) }
                }
            }
            let fid = parameter(.int(field.id))
            let nonText = [ValueKind.datetime, .boolean, .reference].map { String($0.rawValue) }.joined(separator: ", ")
            parts.append(
                "SELECT ord FROM vals WHERE fid = \(fid) AND fold IN (\(folds.map { text($0) }.joined(separator: ", "))) AND kind IN (\(nonText))"
            )
            if !numbers.isEmpty {
                let list = numbers.map { parameter(.double($0)) }.joined(separator: ", ")
                parts.append("SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(kinds.number) AND num IN (\(list))")
            }
            if !instants.isEmpty {
                let list = instants.map { parameter(.double(Double($0))) }.joined(separator: ", ")
                parts.append("SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(kinds.date) AND num IN (\(list))")
            }
            return parts.joined(separator: " UNION ALL ")
        case .sw:
            guard let field else { return nil }
            let fid = parameter(.int(field.id))
            let test = prefix(column: "fold", prefix: c.value.lowercased(), full: "full")
            return "SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(kinds.text) AND \(test)"
        case .mt:
            guard let field, let column = field.ftsColumn, let set = phraseSet(column: column, c.value) else {
                return nil
            }
            return restricted(set, field, column: column)
        case .sm:
            guard let field, let column = field.ftsColumn, let set = try fuzzySet(column: column, c.value) else {
                return nil
            }
            return restricted(set, field, column: column)
        }
    }

    /// `eq` on a user field: the folded text (text, boolean, reference id, a date's calendar date),
    /// or the number, or the instant.
    private mutating func equalitySet(_ field: IndexCatalog.Field, _ value: String) -> String {
        let fid = parameter(.int(field.id))
        let lower = value.lowercased()
        var parts: [String]
        if lower.unicodeScalars.count >= IndexSchema.foldLimit {
            let (head, _) = IndexedValue.folded(value)
            parts = [
                "SELECT ord FROM vals WHERE fid = \(fid) AND fold = \(text(head)) AND coalesce(full, fold) = \(text(lower))"
            ]
        } else {
            parts = ["SELECT ord FROM vals WHERE fid = \(fid) AND fold = \(text(lower))"]
        }
        if let number = QueryNumber.parse(value) {
            parts.append(
                "SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(ValueKind.number.rawValue) AND num = \(parameter(.double(number)))"
            )
        }
        if let date = QueryDateTime.parse(value) {
            if date.hasTime {
                let instant = parameter(.double(Double(date.epochMilliseconds)))
                parts.append(
                    "SELECT ord FROM vals WHERE fid = \(fid) AND kind = \(ValueKind.datetime.rawValue) AND num = \(instant)"
                )
            } else if date.localDate != lower {
                parts.append(
                    "SELECT ord FROM vals WHERE fid = \(fid) AND fold = \(text(date.localDate)) AND kind = \(ValueKind.datetime.rawValue)"
                )
            }
        }
        return parts.joined(separator: " UNION ALL ")
    }

    /// FTS rows matching `match` in the field's column.
    private mutating func textSet(_ field: IndexCatalog.Field, column: String, match: String) -> String {
        restricted("SELECT rowid FROM fts WHERE fts MATCH \(text("{\(column)} : (\(match))"))", field, column: column)
    }

    /// A full-text set narrowed to items having the field, when the column is shared.
    private mutating func restricted(_ set: String, _ field: IndexCatalog.Field, column: String) -> String {
        guard column == catalog.sharedColumn else { return set }
        return "SELECT ord FROM vals WHERE fid = \(parameter(.int(field.id))) AND ord IN (\(set))"
    }

    /// `mt`: FTS candidates (whole words, and the literal prefix of wildcard words) checked by
    /// oceq_mt for the phrase with its wildcards.
    mutating func phraseSet(column: String, _ value: String) -> String? {
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
        let pattern = text(words.joined(separator: " "))
        if constraints.isEmpty {
            return "SELECT rowid FROM fts WHERE fts.\(column) IS NOT NULL AND oceq_mt(fts.\(column), \(pattern))"
        }
        let match = text("{\(column)} : (\(constraints.joined(separator: " AND ")))")
        return "SELECT rowid FROM fts WHERE fts MATCH \(match) AND oceq_mt(fts.\(column), \(pattern))"
    }

    /// `sm`: any word of the value within `TextFolding.fuzzyEdits` edits of a term of the column.
    mutating func fuzzySet(column: String, _ value: String) throws -> String? {
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
        let match = text("{\(column)} : (\(anyOf(terms)))")
        return "SELECT rowid FROM fts WHERE fts MATCH \(match)"
    }
}
