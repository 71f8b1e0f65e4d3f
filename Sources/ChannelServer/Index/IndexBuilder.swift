// Writes a complete index file for a list of export items.
//
// Two passes over the items: the first names the user fields (and which of them hold text, so
// they get a full-text column), the second inserts everything in one transaction with prepared
// statements, journal and sync off. Secondary indexes, the vocabulary table and statistics are
// made after the bulk insert. The caller builds into a temporary file and renames it.

import DeliveryKit

struct IndexBuilder {
    let items: [ExportItem]
    let fingerprint: String

    /// The fid of the standard `taxonomies` field in `vals`.
    static let taxonomiesFieldID: Int64 = 1

    func build(at path: String) throws {
        let db = try SQLiteConnection(path: path, readOnly: false)
        try db.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA temp_store = MEMORY; PRAGMA cache_size = -131072;
            """)

        // Pass 1: field ids, and which fields hold text.
        var fieldIDs: [String: Int64] = ["taxonomies": Self.taxonomiesFieldID]
        var fieldOrder: [String] = ["taxonomies"]
        var textFields: Set<String> = []
        for item in items {
            let fields = item.fields
            for key in fields.keys.sorted() {
                let value = fields[key]!
                let name = "fields." + key
                if fieldIDs[name] == nil {
                    fieldIDs[name] = Int64(fieldOrder.count + 1)
                    fieldOrder.append(name)
                }
                if !textFields.contains(name), Self.holdsText(value) { textFields.insert(name) }
            }
        }
        let standardColumns = StandardField.textFields.count
        var ftsColumns: [String: Int] = [:]
        var userColumns = 0
        for name in fieldOrder where textFields.contains(name) {
            ftsColumns[name] = standardColumns + min(userColumns, IndexSchema.maximumUserColumns)
            userColumns += 1
        }
        let columnCount = standardColumns + min(userColumns, IndexSchema.maximumUserColumns + 1)

        try db.execute("BEGIN")
        try db.execute(IndexSchema.createTables)
        try db.execute(IndexSchema.createFTS(columns: columnCount))
        try db.execute("INSERT INTO fts(fts, rank) VALUES('pgsz', 4000)")

        let insertField = try db.prepare("INSERT INTO fieldnames(fid, name, ftscol) VALUES(?, ?, ?)")
        for name in fieldOrder {
            let column = ftsColumns[name].map { SQLValue.text("c\($0)") } ?? .null
            try insertField.run([.int(fieldIDs[name]!), .text(name), column])
        }

        var ordinalOfID: [String: Int] = [:]
        ordinalOfID.reserveCapacity(items.count)
        for (ord, item) in items.enumerated() where ordinalOfID[item.id] == nil { ordinalOfID[item.id] = ord }

        let itemColumns = IndexSchema.itemColumnNames
        let insertItem = try db.prepare(
            "INSERT INTO items(ord, \(itemColumns.joined(separator: ", "))) VALUES(?\(String(repeating: ", ?", count: itemColumns.count)))"
        )
        let insertValue = try db.prepare(
            "INSERT INTO vals(ord, fid, seq, kind, fold, num, ref, full) VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
        let insertText = try db.prepare(
            "INSERT INTO fts(rowid, \((0..<columnCount).map { "c\($0)" }.joined(separator: ", "))) VALUES(?"
                + String(repeating: ", ?", count: columnCount) + ")")

        var ftsRow = [String?](repeating: nil, count: columnCount)
        for (ord, item) in items.enumerated() {
            // items
            insertItem.reset()
            var index: Int32 = 1
            try insertItem.bind(index, .int(Int64(ord)))
            for (column, field) in StandardField.textFields.enumerated() {
                let text = item.standardText(field)
                try insertItem.bind(index + 1, .text(text))
                try insertItem.bind(index + 2, .text(text.lowercased()))
                index += 2
                ftsRow[column] = text.isEmpty ? nil : TextFolding.plainText(text)
            }
            try insertItem.bind(index + 1, item.translatable.map { .int($0 ? 1 : 0) } ?? .null)
            for date in [indexedDate(item.createdDate), indexedDate(item.updatedDate)] {
                try insertItem.bind(index + 2, date.map { .int($0.epochMilliseconds) } ?? .null)
                try insertItem.bind(index + 3, date.map { .text($0.localDate) } ?? .null)
                index += 2
            }
            _ = try insertItem.step()

            // vals and the user columns of fts
            for (seq, id) in item.taxonomyIDs.enumerated() {
                try insertValue.run([
                    .int(Int64(ord)), .int(Self.taxonomiesFieldID), .int(Int64(seq)),
                    .int(ValueKind.reference.rawValue), .text(id.lowercased()), .null,
                    ordinalOfID[id].map { .int(Int64($0)) } ?? .null, .null,
                ])
            }
            for column in standardColumns..<columnCount { ftsRow[column] = nil }
            for (key, json) in item.fields {
                let name = "fields." + key
                let fid = fieldIDs[name]!
                var texts: [String] = []
                for (seq, value) in IndexedValue.values(of: json) {
                    try insertValue.run([
                        .int(Int64(ord)), .int(fid), .int(Int64(seq)), .int(value.kind.rawValue),
                        value.fold.map { .text($0) } ?? .null, value.num.map { .double($0) } ?? .null,
                        value.referenceID.flatMap { ordinalOfID[$0] }.map { .int(Int64($0)) } ?? .null,
                        value.full.map { .text($0) } ?? .null,
                    ])
                    if let text = value.text { texts.append(TextFolding.plainText(text)) }
                }
                if let column = ftsColumns[name], !texts.isEmpty {
                    let joined = texts.joined(separator: TextFolding.valueSeparator)
                    if let existing = ftsRow[column] {
                        ftsRow[column] = existing + TextFolding.valueSeparator + joined
                    } else {
                        ftsRow[column] = joined
                    }
                }
            }
            if ftsRow.contains(where: { $0 != nil }) {
                insertText.reset()
                try insertText.bind(1, .int(Int64(ord)))
                for (column, text) in ftsRow.enumerated() {
                    try insertText.bind(Int32(column + 2), text.map { .text($0) } ?? .null)
                }
                _ = try insertText.step()
            }
        }

        try db.execute(IndexSchema.createIndexes)
        try db.execute("INSERT INTO fts(fts) VALUES('optimize')")
        let insertMeta = try db.prepare("INSERT INTO meta(key, value) VALUES(?, ?)")
        for (key, value) in [
            ("schema", IndexSchema.version), ("items", String(items.count)), ("ids", Self.idsHash(items)),
            ("fingerprint", fingerprint),
        ] {
            try insertMeta.run([.text(key), .text(value)])
        }
        try db.execute("PRAGMA analysis_limit = 1000; ANALYZE;")
        try db.execute("COMMIT")
    }

    /// True if the value is, or is an array holding, a string.
    static func holdsText(_ json: JSON) -> Bool {
        switch json {
        case .string: true
        case .array(let elements): elements.contains { if case .string = $0 { true } else { false } }
        default: false
        }
    }

    /// FNV-1a over the ids in order: a reopened index must list the same items at the same ordinals.
    static func idsHash(_ items: [ExportItem]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for item in items {
            for byte in item.id.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16) + ":" + String(items.count)
    }
}
