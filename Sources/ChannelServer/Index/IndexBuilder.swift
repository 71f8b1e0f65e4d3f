// Writes a complete index (its file and side file, IndexSchema) for a list of export items.
//
// Two passes over the items: the first names the user fields and notes the kinds of value each
// holds (text fields get a full-text column; the loader gives them, `FieldKinds`, read while it
// parses the fields anyway, else a pass on all cores reads them), the second inserts everything in
// one transaction with prepared statements, journal and sync off. Secondary indexes, the
// vocabulary table and statistics are made after the bulk insert. Each item is also stored whole
// (`store`, in `ItemCodec`'s form) with the channel's non-item content, for `ItemStore`. The caller
// builds into temporary files and renames them.
//
// SQLite writes a file on one thread, and a bulk insert is bound by that writer (computing the
// rows on another thread gained nothing), so the build writes two files at once (`IndexBuild`):
// this thread the items, the full-text table and their indexes; a second thread the stored items
// (from the start, while the loader still finishes later items) and then the user-field values
// (`vals`, about 9 rows an item) with their indexes.
//
// Each thread parses an item's fields itself. Parsing them once, here, and handing the parsed
// fields (or their values) to the side thread in batches was tried (session 9): 10 % fewer
// instructions under callgrind, but more CPU time and a slower build on two cores (100k items,
// medians of interleaved runs: main thread 3.6 s -> 4.3 s), since each thread then reads, retains
// and frees objects last touched on the other core.

import Dispatch
import FoundationEssentials
import OCEQCore

/// The items and settings of one index build; writes the main file (`IndexBuild` runs it and the
/// side file's writer).
struct IndexBuilder: Sendable {
    let items: [ExportItem]
    let fingerprint: String
    /// Encodes the stored items (paths relative to the channel's content folders).
    var codec = ItemCodec(roots: [])
    /// The channel's non-item content (`ItemCodec.encodeParts`), stored under key -1; nil: none.
    var parts: [UInt8]? = nil
    /// The user fields of `items` as the loader read them; nil: read them here (a pass over every
    /// item's fields).
    var fieldKinds: FieldKinds? = nil
    /// The ordinal of each item id in `items` (ids are unique); nil: made here.
    var ordinals: [String: Int]? = nil

    /// SQLite's page cache for the bulk inserts, in KiB.
    static let insertCacheKiB = 65536

    /// SQLite's page cache while the secondary indexes are made, in KiB. The sorter of each
    /// CREATE INDEX sorts runs of this size in memory before merging them: runs that fit the
    /// processor's caches sort fastest (at 1M items `vals_fold` took 8.1 s with 2 MiB, 8.8 s with
    /// 8 MiB and 13.6 s with the 128 MiB the inserts use).
    static let indexCacheKiB = 2000

    /// The fid of the standard `taxonomies` field in `vals`.
    static let taxonomiesFieldID: Int64 = 1

    private struct Field {
        var id: Int64
        var name: String
        var kinds: Int64 = 0
        var column: Int?
    }

    /// Opens a file to build with the bulk-loading settings. No `temp_store = MEMORY`: with it
    /// SQLite sorts each CREATE INDEX as one in-memory list (a merge sort of linked records that
    /// misses the cache at every step: 17 s for `vals_fold` at 1M items). With temporary files it
    /// sorts runs the size of the page cache and merges them, on `threads` workers; see
    /// `indexCacheKiB`.
    static func openForBuilding(_ path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, readOnly: false)
        try db.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA cache_size = -\(insertCacheKiB); PRAGMA threads = 2;
            """)
        return db
    }

    /// The main file: field names, items, full text, the vocabulary. Gives the user fields' ids to
    /// `handOver` as soon as they are known.
    func buildMain(at path: String, buildID: String, handOver: ([String: Int64]) -> Void) throws {
        var clock = PhaseClock("index:")
        let db = try Self.openForBuilding(path)

        // Pass 1: field ids (by first appearance, keys sorted within an item) and kinds, unless the
        // loader gave them.
        var fields: [String: Field] = [:]
        var order: [String] = []
        for (key, kinds) in (fieldKinds ?? Self.fieldKinds(items)).fields {
            fields[key] = Field(
                id: Int64(order.count) + Self.taxonomiesFieldID + 1, name: "fields." + key, kinds: kinds)
            order.append(key)
        }
        clock.mark("field kinds")
        let standardColumns = IndexSchema.ftsStandardFields.count
        var textFields = 0
        for key in order where fields[key]!.kinds & ValueKind.text.bit != 0 {
            fields[key]!.column = standardColumns + min(textFields, IndexSchema.maximumUserColumns)
            textFields += 1
        }
        let columnCount = standardColumns + min(textFields, IndexSchema.maximumUserColumns + 1)
        handOver(fields.mapValues(\.id))

        try db.execute("BEGIN")
        try db.execute(IndexSchema.createTables)
        try db.execute(IndexSchema.createFTS(columns: columnCount))
        // The segments are merged once, by `optimize` after the bulk insert, not also along the way.
        try db.execute("INSERT INTO fts(fts, rank) VALUES('automerge', 0)")

        let insertField = try db.prepare("INSERT INTO fieldnames(fid, name, ftscol, kinds) VALUES(?, ?, ?, ?)")
        let taxonomyKinds = items.contains { !$0.taxonomyIDs.isEmpty } ? ValueKind.reference.bit : 0
        try insertField.run([.int(Self.taxonomiesFieldID), .text("taxonomies"), .null, .int(taxonomyKinds)])
        for key in order {
            let field = fields[key]!
            try insertField.run([
                .int(field.id), .text(field.name), field.column.map { .text("c\($0)") } ?? .null, .int(field.kinds),
            ])
        }

        let itemColumns = IndexSchema.itemColumnNames
        let insertItem = try db.prepare(
            "INSERT INTO items(ord, \(itemColumns.joined(separator: ", "))) VALUES(?"
                + String(repeating: ", ?", count: itemColumns.count) + ")")
        let insertText = try db.prepare(
            "INSERT INTO fts(rowid, \((0..<columnCount).map { "c\($0)" }.joined(separator: ", "))) VALUES(?"
                + String(repeating: ", ?", count: columnCount) + ")")

        var texts = [[String]](repeating: [], count: columnCount)
        for (ord, item) in items.enumerated() {
            let ordValue = SQLValue.int(Int64(ord))
            insertItem.reset()
            try insertItem.bind(1, ordValue)
            var index: Int32 = 2
            let itemFields = item.fields  // parsed on each read: once per item
            for field in StandardField.textFields {
                let text = item.standardText(field, fields: itemFields)
                try insertItem.bind(index, .text(text))
                try insertItem.bind(index + 1, .text(text.lowercased()))
                index += 2
            }
            try insertItem.bind(index, item.translatable.map { .int($0 ? 1 : 0) } ?? .null)
            index += 1
            for date in [indexedDate(item.createdDate), indexedDate(item.updatedDate)] {
                try insertItem.bind(index, date.map { .int($0.epochMilliseconds) } ?? .null)
                try insertItem.bind(index + 1, date.map { .text($0.localDate) } ?? .null)
                index += 2
            }
            _ = try insertItem.step()

            for column in texts.indices { texts[column].removeAll(keepingCapacity: true) }
            if !item.name.isEmpty { texts[0].append(TextFolding.plainText(item.name)) }
            if !item.description.isEmpty { texts[1].append(TextFolding.plainText(item.description)) }

            for (key, json) in itemFields {
                guard let column = fields[key]!.column else { continue }
                for (_, value) in IndexedValue.values(of: json) {
                    if let text = value.text { texts[column].append(TextFolding.plainText(text)) }
                }
            }
            if texts.contains(where: { !$0.isEmpty }) {
                insertText.reset()
                try insertText.bind(1, ordValue)
                for (column, values) in texts.enumerated() where !values.isEmpty {
                    try insertText.bind(Int32(column + 2), .text(values.joined(separator: TextFolding.valueSeparator)))
                }
                _ = try insertText.step()
            }
        }

        clock.mark("rows inserted")
        try db.execute("INSERT INTO fts(fts) VALUES('optimize')")
        clock.mark("fts optimize")
        try db.execute("PRAGMA cache_size = -\(Self.indexCacheKiB)")
        try db.execute(IndexSchema.createIndexes)
        clock.mark("secondary indexes and vocabulary")
        let insertMeta = try db.prepare("INSERT INTO meta(key, value) VALUES(?, ?)")
        for (key, value) in [
            ("schema", IndexSchema.version), ("items", String(items.count)), ("ids", Self.idsHash(items)),
            ("fingerprint", fingerprint), ("side", buildID),
        ] {
            try insertMeta.run([.text(key), .text(value)])
        }
        try db.execute("PRAGMA analysis_limit = 1000; ANALYZE;")
        clock.mark("analyze")
        try db.execute("COMMIT")
        clock.mark("commit")
    }

    /// The user fields of `items` (see `FieldKinds`), read on all cores in chunks joined in order.
    static func fieldKinds(_ items: [ExportItem]) -> FieldKinds {
        let chunk = 2048
        let chunks = (items.count + chunk - 1) / chunk
        let slots = SlotTable<FieldKinds>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunkIndex in
            var found = FieldKinds()
            for item in items[chunkIndex * chunk..<min(items.count, (chunkIndex + 1) * chunk)] {
                found.add(item.fields)  // parsed on each read: once per item
            }
            slots.set(chunkIndex, found)
        }
        var all = FieldKinds()
        for found in slots.takeValues() { all.append(contentsOf: found) }
        return all
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
