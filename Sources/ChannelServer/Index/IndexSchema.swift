// The layout of the index: two SQLite files, built at once by two writers (IndexBuilder) and read
// as one (the side file is attached to every connection as `side`; queries name tables unqualified).
//
// The main file:
//     meta(key, value)                  schema version, item count, ids hash, fingerprint, and
//                                       `side`: the build id the side file must hold
//     items(ord, <standard columns>)    one row per item; text columns raw and lower-cased (`_f`),
//                                       dates as epoch ms plus their calendar date (`_d`)
//     fieldnames(fid, name, ftscol, kinds)
//                                       `fields.<name>` and `taxonomies`, their full-text column
//                                       and the kinds of value seen (bit 1 << ValueKind)
//     fts(c0, c1, ...)                  FTS5, contentless, detail=column, rowid = ord: c0 name,
//                                       c1 description, then one column per user field with text
//     terms(col, term, len)             the FTS vocabulary per column, for `sm`
// The side file (`<main>.side`):
//     sidemeta(key, value)              `build`: the id of the build that wrote it
//     vals(ord, fid, seq, kind, fold, num, ref, full)
//                                       one row per user-field value (array elements too, seq >= 0)
//     store(key, body)                  each item in `ItemCodec`'s form by ordinal; key -1 the
//                                       channel's types, taxonomies, variation sets and issues
//                                       (ItemStore: what `oceq serve` answers from)
//
// `ord` is the item's index in the array given to ChannelIndex. The FTS table keeps neither the
// text nor word positions (fast to build, small); phrases (`mt`) are checked on the values
// themselves (`items`, `vals.fold`/`vals.full`).

import OCEQCore

/// The kind of one indexed user-field value (`vals.kind`).
enum ValueKind: Int64, CaseIterable {
    case number = 1
    case datetime = 2
    case boolean = 3
    case text = 4
    case reference = 5

    /// This kind's bit in `fieldnames.kinds`.
    var bit: Int64 { 1 << rawValue }

    /// The bit in `fieldnames.kinds` set when some item holds an array in the field.
    static let multivaluedBit: Int64 = 1
}

enum IndexSchema {
    /// Bumped whenever the layout or the meaning of a column changes, `ItemCodec`'s form changes, or
    /// the loader gives other items for the same files (a restart with an unchanged export serves
    /// the stored items without reading the files); older files are rebuilt.
    static let version = "oceq-index-8"

    /// Text values are folded into `vals.fold` up to this many characters; longer ones also keep
    /// the whole folded text in `vals.full`.
    static let foldLimit = 64

    /// At most this many user fields get an FTS column of their own; the rest share one.
    static let maximumUserColumns = 1000

    /// The standard fields with a full-text column (others use word functions over `items`).
    static let ftsStandardFields: [StandardField] = [.name, .description]

    /// The FTS column of a standard text field, if it has one.
    static func ftsColumn(_ field: StandardField) -> String? {
        ftsStandardFields.firstIndex(of: field).map { "c\($0)" }
    }

    static var createTables: String {
        let columns = itemColumnNames.map { "\($0) \(columnType($0))" }.joined(separator: ", ")
        return """
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE items(ord INTEGER PRIMARY KEY, \(columns));
            CREATE TABLE fieldnames(fid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, ftscol TEXT,
                kinds INTEGER NOT NULL);
            CREATE TABLE terms(col INTEGER NOT NULL, term TEXT NOT NULL, len INTEGER NOT NULL);
            """
    }

    /// The tables of the side file.
    static let createSideTables = """
        CREATE TABLE sidemeta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE vals(ord INTEGER NOT NULL, fid INTEGER NOT NULL, seq INTEGER NOT NULL, kind INTEGER NOT NULL,
            fold TEXT, num REAL, ref INTEGER, full TEXT);
        CREATE TABLE store(key INTEGER PRIMARY KEY, body BLOB NOT NULL);
        """

    /// The name the side file is attached under.
    static let sideSchema = "side"

    /// The side file of the main file at `path`.
    static func sidePath(of path: String) -> String { path + ".side" }

    private static func columnType(_ name: String) -> String {
        switch name {
        case "translatable", "createdDate", "updatedDate": "INTEGER"
        case "createdDate_d", "updatedDate_d": "TEXT"
        default: "TEXT NOT NULL"
        }
    }

    /// The item columns in insertion order (after `ord`).
    static let itemColumnNames: [String] =
        StandardField.textFields.flatMap { [$0.rawValue, $0.rawValue + "_f"] }
        + ["translatable", "createdDate", "createdDate_d", "updatedDate", "updatedDate_d"]

    static func createFTS(columns: Int) -> String {
        let names = (0..<columns).map { "c\($0)" }.joined(separator: ", ")
        return """
            CREATE VIRTUAL TABLE fts USING fts5(\(names), tokenize = 'unicode61 remove_diacritics 2',
                content = '', detail = column, columnsize = 0);
            """
    }

    /// Created after the bulk insert.
    static let createIndexes = """
        CREATE INDEX items_id ON items(id);
        CREATE INDEX items_type ON items(type);
        CREATE INDEX items_typeCategory ON items(typeCategory);
        CREATE INDEX items_name ON items(name);
        CREATE INDEX items_name_f ON items(name_f);
        CREATE INDEX items_slug ON items(slug);
        CREATE INDEX items_slug_f ON items(slug_f);
        CREATE INDEX items_language ON items(language);
        CREATE INDEX items_createdDate ON items(createdDate);
        CREATE INDEX items_updatedDate ON items(updatedDate);
        CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, fts, col);
        INSERT INTO terms SELECT CAST(substr(col, 2) AS INTEGER), term, length(term) FROM temp.vocabulary;
        DROP TABLE temp.vocabulary;
        CREATE INDEX terms_col ON terms(col, len);
        """

    /// Created in the side file after its bulk insert.
    static let createSideIndexes = """
        CREATE INDEX vals_fold ON vals(fid, fold, kind, ord) WHERE fold IS NOT NULL;
        CREATE INDEX vals_num ON vals(fid, kind, num, ord) WHERE num IS NOT NULL;
        CREATE INDEX vals_ref ON vals(fid, ref, ord) WHERE ref IS NOT NULL;
        """
}
