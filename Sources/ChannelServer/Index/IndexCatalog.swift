/// What the query compiler needs to know about one index file: its user fields and their
/// full-text columns. Loaded once when the index opens.
struct IndexCatalog: Sendable {
    struct Field: Sendable {
        var id: Int64
        var ftsColumn: String?
    }

    /// By name: `fields.<name>` and `taxonomies`.
    var fields: [String: Field]
    /// The column shared by user fields beyond `IndexSchema.maximumUserColumns`, if any.
    var sharedColumn: String?
    /// The FTS columns `default` does not search (standard columns other than name/description).
    var nonDefaultColumns: [String]

    init(connection db: SQLiteConnection) throws {
        var fields: [String: Field] = [:]
        var columnUse: [String: Int] = [:]
        let statement = try db.prepare("SELECT fid, name, ftscol FROM fieldnames")
        while try statement.step() {
            let column = statement.text(2)
            fields[statement.text(1) ?? ""] = Field(id: statement.int64(0), ftsColumn: column)
            if let column { columnUse[column, default: 0] += 1 }
        }
        self.fields = fields
        sharedColumn = columnUse.first { $0.value > 1 }?.key
        nonDefaultColumns = StandardField.textFields.filter { $0 != .name && $0 != .description }
            .map(IndexSchema.ftsColumn)
    }
}
