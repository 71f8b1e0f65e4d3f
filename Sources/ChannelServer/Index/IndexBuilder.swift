// Writes a complete index (its file and side file, IndexSchema) for a list of export items.
//
// Two passes over the items: the first names the user fields and notes the kinds of value each
// holds (text fields get a full-text column; the loader gives them, `FieldKinds`, else a parallel
// pass reads them), the second inserts everything in one transaction with prepared statements,
// journal and sync off. Secondary indexes, the vocabulary table and statistics are made after the
// bulk insert. Each item is also stored whole (`store`, in `ItemCodec`'s form) with the channel's
// non-item content, for `ItemStore`. The caller builds into temporary files and renames them.
//
// SQLite writes a file on one thread, and a bulk insert is bound by that writer (computing the
// rows on another thread gained nothing), so the build writes two files at once: this thread the
// items, the full-text table and their indexes; a second thread the user-field values (`vals`,
// about 9 rows an item) with their indexes, and the stored items. Each item's fields are parsed
// once, on this thread, which hands them to the side thread in batches (`BatchQueue`): the values
// of fields with a full-text column as this thread read them for the full text, the others parsed
// (the side thread reads their values, so that this thread, the longer of the two, does less).
// The side thread inserts each batch's values as it comes and stores items while none waits.

import Dispatch
import Foundation
import OCEQCore

struct IndexBuilder {
    let items: [ExportItem]
    let fingerprint: String
    /// Encodes the stored items (paths relative to the channel's content folders).
    var codec = ItemCodec(roots: [])
    /// The channel's non-item content (`ItemCodec.encodeParts`), stored under key -1; nil: none.
    var parts: [UInt8]? = nil
    /// The user fields of `items` as the loader read them; nil: read them here (a pass over every
    /// item's fields).
    var fieldKinds: FieldKinds? = nil

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

    /// Builds the main file at `path` and the side file at `side` (on a second thread), both
    /// holding `buildID` so that one is never used with the other of another build.
    func build(at path: String, side: String, buildID: String) throws {
        let work = BatchQueue<SideWork>(capacity: Self.batchesAhead)
        let batchesDone = Locked(0)
        let sideDone = Handoff<Result<Void, any Error>>()
        let thread = Thread { [self] in
            let result = Result { try buildSide(at: side, buildID: buildID, work: work, batchesDone: batchesDone) }
            // A side file that failed stops the main thread's hand-over (it would wait for room).
            if case .failure = result { work.cancel() }
            sideDone.put(result)
        }
        thread.stackSize = 8 << 20
        thread.start()
        let mainResult = Result {
            try buildMain(at: path, buildID: buildID, work: work, batchesDone: batchesDone)
        }
        // The side thread stops at the end of the hand-over: told that the main file failed before
        // handing every item over, it stops without finishing its own.
        if case .failure = mainResult { work.put(.end(complete: false)) }
        let sideResult = sideDone.take()
        try mainResult.get()
        try sideResult.get()
    }

    /// Items per batch handed to the side thread, and batches that may wait unread.
    static let batchSize = 256
    static let batchesAhead = 16

    /// One user field of one item, handed to the side thread: the values of a field with a
    /// full-text column (the main thread reads them for the full text), else the parsed value the
    /// side thread reads them from, so that no value is read on both threads.
    struct FieldValues: Sendable {
        var fid: Int64
        var json: JSON?
        var values: [(seq: Int, value: IndexedValue)] = []
    }

    /// What the main thread hands the side thread: the user-field values of a run of items (by
    /// field id), then the end.
    enum SideWork: Sendable {
        case fields(start: Int, items: [[FieldValues]])
        /// `complete` false: the main file failed, the side file is not finished.
        case end(complete: Bool)
    }

    /// Opens a file to build with the bulk-loading settings. No `temp_store = MEMORY`: with it
    /// SQLite sorts each CREATE INDEX as one in-memory list (a merge sort of linked records that
    /// misses the cache at every step: 17 s for `vals_fold` at 1M items). With temporary files it
    /// sorts runs the size of the page cache and merges them, on `threads` workers; see
    /// `indexCacheKiB`.
    private static func openForBuilding(_ path: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: path, readOnly: false)
        try db.execute(
            """
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA cache_size = -65536; PRAGMA threads = 2;
            """)
        return db
    }

    /// The main file: field names, items, full text, the vocabulary. Each item's fields are parsed
    /// once, here, and handed to the side thread (`work`) in batches as the rows are inserted.
    /// Each batch is kept until the side thread has counted it done (`batchesDone`), so that this
    /// thread, which allocated the parsed fields, also frees them: a block freed on another thread
    /// goes back to this thread's malloc arena under its lock, and this thread's next allocations
    /// would find none of them in its own cache.
    private func buildMain(
        at path: String, buildID: String, work: BatchQueue<SideWork>, batchesDone: Locked<Int>
    ) throws {
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
        var batch: [[FieldValues]] = []
        batch.reserveCapacity(Self.batchSize)
        var handedOver: [SideWork] = []
        var released = 0
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

            var handed: [FieldValues] = []
            handed.reserveCapacity(itemFields.count)
            for (key, json) in itemFields {
                let field = fields[key]!
                guard let column = field.column else {
                    handed.append(FieldValues(fid: field.id, json: json))
                    continue
                }
                let values = IndexedValue.values(of: json)
                if !values.isEmpty { handed.append(FieldValues(fid: field.id, values: values)) }
                for (_, value) in values {
                    if let text = value.text { texts[column].append(TextFolding.plainText(text)) }
                }
            }
            batch.append(handed)
            if batch.count == Self.batchSize || ord == items.count - 1 {
                let done = batchesDone.withLock { $0 }
                handedOver.removeFirst(done - released)
                released = done
                let next = SideWork.fields(start: ord + 1 - batch.count, items: batch)
                handedOver.append(next)
                work.put(next)
                batch = []
                batch.reserveCapacity(Self.batchSize)
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

        work.put(.end(complete: true))
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

    /// The side file: the stored items and the user-field values (`vals`) with their indexes.
    /// The values come from the main thread's parse (`work`), and are inserted as soon as they
    /// come; the items are stored in order while no batch waits.
    private func buildSide(
        at path: String, buildID: String, work: BatchQueue<SideWork>, batchesDone: Locked<Int>
    ) throws {
        var clock = PhaseClock("index (side):")
        let db = try Self.openForBuilding(path)
        try db.execute("BEGIN")
        try db.execute(IndexSchema.createSideTables)
        let insertBody = try db.prepare("INSERT INTO store(key, body) VALUES(?, ?)")
        if let parts { try insertBody.run([.int(ItemStore.partsKey), .blob(parts)]) }
        var stored = 0
        func storeItems(upTo end: Int) throws {
            while stored < end {
                try insertBody.run([.int(Int64(stored)), .blob(codec.encode(items[stored]))])
                stored += 1
            }
        }

        var ordinalOfID: [String: Int64] = [:]
        ordinalOfID.reserveCapacity(items.count)
        for (ord, item) in items.enumerated() where ordinalOfID[item.id] == nil { ordinalOfID[item.id] = Int64(ord) }
        clock.mark("ordinals")
        let insertValue = try db.prepare(
            "INSERT INTO vals(ord, fid, seq, kind, fold, num, ref, full) VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
        func insertValues(of work: SideWork) throws {
            guard case .fields(let start, let batch) = work else { return }
            for (offset, itemFields) in batch.enumerated() {
                let ord = start + offset
                let ordValue = SQLValue.int(Int64(ord))
                for (seq, id) in items[ord].taxonomyIDs.enumerated() {
                    try insert(
                        insertValue, ord: ordValue, fid: Self.taxonomiesFieldID, seq: seq,
                        IndexedValue(kind: .reference, fold: id.lowercased(), referenceID: id), ref: ordinalOfID[id])
                }
                for field in itemFields {
                    for (seq, value) in field.json.map(IndexedValue.values(of:)) ?? field.values {
                        try insert(
                            insertValue, ord: ordValue, fid: field.fid, seq: seq, value,
                            ref: value.referenceID.flatMap { ordinalOfID[$0] })
                    }
                }
            }
        }
        var storeSeconds = 0.0
        while true {
            var next: SideWork?
            if let ready = work.poll() {
                next = ready
            } else if stored < items.count {
                let started = DispatchTime.now().uptimeNanoseconds
                try storeItems(upTo: min(items.count, stored + 64))
                storeSeconds += Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                continue
            } else {
                next = work.take()
            }
            if case .end(let complete) = next {
                guard complete else { return }
                break
            }
            try insertValues(of: next!)
            // This thread's references go before the count, so the main thread frees the batch.
            next = nil
            batchesDone.withLock { $0 += 1 }
        }
        clock.mark("values inserted (\((storeSeconds * 1000).rounded() / 1000)s of it storing items)")
        try storeItems(upTo: items.count)
        clock.mark("items stored")
        try db.execute("PRAGMA cache_size = -\(Self.indexCacheKiB)")
        try db.execute(IndexSchema.createSideIndexes)
        clock.mark("value indexes")
        try db.prepare("INSERT INTO sidemeta(key, value) VALUES('build', ?)").run([.text(buildID)])
        try db.execute("PRAGMA analysis_limit = 1000; ANALYZE;")
        try db.execute("COMMIT")
        clock.mark("analyze and commit")
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

    private func insert(
        _ statement: SQLiteStatement, ord: SQLValue, fid: Int64, seq: Int, _ value: IndexedValue, ref: Int64?
    ) throws {
        statement.reset()
        try statement.bind(1, ord)
        try statement.bind(2, .int(fid))
        try statement.bind(3, .int(Int64(seq)))
        try statement.bind(4, .int(value.kind.rawValue))
        if let fold = value.fold { try statement.bind(5, .text(fold)) }
        if let num = value.num { try statement.bind(6, .double(num)) }
        if let ref { try statement.bind(7, .int(ref)) }
        if let full = value.full { try statement.bind(8, .text(full)) }
        _ = try statement.step()
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
