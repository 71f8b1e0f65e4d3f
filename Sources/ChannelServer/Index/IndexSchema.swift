// The layout of the index file.
//
//     meta(key, value)                  schema version, item count, ids hash, fingerprint
//     items(ord, <standard columns>)    one row per item; text columns raw and folded (`_f`),
//                                       dates as epoch ms plus their calendar date (`_d`)
//     fieldnames(fid, name, ftscol)     `fields.<name>` and `taxonomies`, with their FTS column
//     vals(ord, fid, seq, kind, fold, num, ref, full)
//                                       one row per user-field value (array elements too, seq >= 0)
//     fts(c0, c1, ...)                  FTS5, rowid = ord: c0...c9 the standard text fields, then
//                                       one column per user field holding text
//     terms(col, term, len)             the FTS vocabulary per column, for `sm`
//
// `ord` is the item's index in the array given to ChannelIndex.

/// The kind of one indexed user-field value (`vals.kind`).
enum ValueKind: Int64 {
    case number = 1
    case datetime = 2
    case boolean = 3
    case text = 4
    case reference = 5
}

enum IndexSchema {
    /// Bumped whenever the layout or the meaning of a column changes; older files are rebuilt.
    static let version = "oceq-index-3"

    /// Text values are folded into `vals.fold` up to this many characters; longer ones also keep
    /// the whole folded text in `vals.full`.
    static let foldLimit = 500

    /// At most this many user fields get an FTS column of their own; the rest share one.
    static let maximumUserColumns = 1000

    /// The FTS column of a standard text field.
    static func ftsColumn(_ field: StandardField) -> String {
        "c\(StandardField.textFields.firstIndex(of: field)!)"
    }

    /// The FTS columns the `default` parameter searches besides the user columns.
    static let defaultStandardColumns = [ftsColumn(.name), ftsColumn(.description)]

    static var createTables: String {
        var itemColumns = ["ord INTEGER PRIMARY KEY"]
        for field in StandardField.textFields {
            itemColumns.append("\(field.rawValue) TEXT NOT NULL")
            itemColumns.append("\(field.rawValue)_f TEXT NOT NULL")
        }
        itemColumns += [
            "translatable INTEGER", "createdDate INTEGER", "createdDate_d TEXT", "updatedDate INTEGER",
            "updatedDate_d TEXT",
        ]
        return """
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE items(\(itemColumns.joined(separator: ", ")));
            CREATE TABLE fieldnames(fid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, ftscol TEXT);
            CREATE TABLE vals(ord INTEGER NOT NULL, fid INTEGER NOT NULL, seq INTEGER NOT NULL, kind INTEGER NOT NULL,
                fold TEXT, num REAL, ref INTEGER, full TEXT);
            CREATE TABLE terms(col INTEGER NOT NULL, term TEXT NOT NULL, len INTEGER NOT NULL);
            """
    }

    /// The item columns in insertion order (after `ord`).
    static var itemColumnNames: [String] {
        StandardField.textFields.flatMap { [$0.rawValue, $0.rawValue + "_f"] }
            + ["translatable", "createdDate", "createdDate_d", "updatedDate", "updatedDate_d"]
    }

    static func createFTS(columns: Int) -> String {
        let names = (0..<columns).map { "c\($0)" }.joined(separator: ", ")
        return "CREATE VIRTUAL TABLE fts USING fts5(\(names), tokenize = 'unicode61 remove_diacritics 2');"
    }

    /// Created after the bulk insert.
    static let createIndexes = """
        CREATE INDEX items_id ON items(id);
        CREATE INDEX items_type ON items(type);
        CREATE INDEX items_typeCategory ON items(typeCategory);
        CREATE INDEX items_name ON items(name);
        CREATE INDEX items_name_f ON items(name_f);
        CREATE INDEX items_slug ON items(slug);
        CREATE INDEX items_language ON items(language);
        CREATE INDEX items_createdDate ON items(createdDate);
        CREATE INDEX items_updatedDate ON items(updatedDate);
        CREATE INDEX vals_fold ON vals(fid, fold, kind, ord) WHERE fold IS NOT NULL;
        CREATE INDEX vals_num ON vals(fid, kind, num, ord) WHERE num IS NOT NULL;
        CREATE INDEX vals_ref ON vals(fid, ref, ord) WHERE ref IS NOT NULL;
        CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, fts, col);
        INSERT INTO terms SELECT CAST(substr(col, 2) AS INTEGER), term, length(term) FROM temp.vocabulary;
        DROP TABLE temp.vocabulary;
        CREATE INDEX terms_col ON terms(col, len);
        """
}
