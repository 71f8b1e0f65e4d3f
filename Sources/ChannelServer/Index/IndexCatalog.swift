/// What the query compiler needs to know about one index file: its user fields, their
/// full-text columns and kinds of value. Loaded once when the index opens.
struct IndexCatalog: Sendable {
    struct Field: Sendable {
        var id: Int64
        var ftsColumn: String?
        /// `ValueKind.bit` mask of the kinds of value the field holds.
        var kinds: Int64

        func has(_ kind: ValueKind) -> Bool { kinds & kind.bit != 0 }

        /// True when every value is text, so the full-text column alone answers `co`.
        var textOnly: Bool { kinds == ValueKind.text.bit }
    }

    /// By name: `fields.<name>` and `taxonomies`.
    var fields: [String: Field]
    /// The column shared by user fields beyond `IndexSchema.maximumUserColumns`, if any.
    var sharedColumn: String?

    init(connection db: SQLiteConnection) throws {
        var fields: [String: Field] = [:]
        var columnUse: [String: Int] = [:]
        let statement = try db.prepare("SELECT fid, name, ftscol, kinds FROM fieldnames")
        while try statement.step() {
            let column = statement.text(2)
            fields[statement.text(1) ?? ""] = Field(
                id: statement.int64(0), ftsColumn: column, kinds: statement.int64(3))
            if let column { columnUse[column, default: 0] += 1 }
        }
        self.fields = fields
        sharedColumn = columnUse.first { $0.value > 1 }?.key
    }
}
