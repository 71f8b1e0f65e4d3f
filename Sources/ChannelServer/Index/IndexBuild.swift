// One index build on its two threads (see IndexBuilder): the side file's writer starts at once and
// stores the items (`store`) as the loader finishes them, batch by batch in order, while later
// batches are still being finished on the other core; `finish` then writes the main file on the
// calling thread, and the side writer goes on with the user-field values.
//
// The loader's last sequential steps (merging, finishing the items: 7-10 s at 1M items) left a
// core idle, and the side writer is the longer of the two (its stored items alone took 15 s at
// 1M), so starting it early shortens the build by up to the time the two overlap. The stored items
// are the final ones in their final order: the side file is the same as when it was written after
// the load, except that the channel's non-item content (key -1) is stored after the items.

import FoundationEssentials
import OCEQCore

/// The two writers of one index build, the side file's started at once (see above).
final class IndexBuild: Sendable {
    private let sidePath: String
    private let buildID: String
    private let codec: ItemCodec
    /// Finished items in order, for the side file's store.
    private let batches = HandoffQueue<[ExportItem]>()
    /// The rest of the build once every item is given; nil: abandoned.
    private let rest = Handoff<IndexBuilder?>()
    /// The user fields' ids, from the main file's thread; nil: the main file failed.
    private let fieldIDs = Handoff<[String: Int64]?>()
    private let sideDone = Handoff<Result<Void, any Error>>()
    /// Whether `finish` or `abandon` was called.
    private let ended = Locked(false)
    /// Whether `abandon` was called: the side writer stops at its next batch.
    private let abandoned = Locked(false)

    /// Starts the side file's writer on `side`; the build's files hold `buildID`.
    init(side: String, buildID: String, codec: ItemCodec) {
        sidePath = side
        self.buildID = buildID
        self.codec = codec
        DetachedThread.start(name: "oceq-side-writer", stackSize: 8 << 20) { [self] in
            sideDone.put(Result { try writeSide() })
        }
    }

    /// Gives the next finished items, in order, to be stored.
    func store(_ items: ArraySlice<ExportItem>) {
        batches.put(Array(items))
    }

    /// Writes the main file at `path` for `builder`'s items (all given to `store` first), while the
    /// side writer finishes; throws the first failure of either.
    func finish(_ builder: IndexBuilder, at path: String) throws {
        let wasEnded = ended.testAndSet()
        precondition(!wasEnded, "build already ended")
        batches.close()
        rest.put(builder)
        var handedOver = false
        let mainResult = Result {
            try builder.buildMain(at: path, buildID: buildID) { ids in
                fieldIDs.put(ids)
                handedOver = true
            }
        }
        // The side writer waits for the field ids: it gets nil when the main file failed first.
        if !handedOver { fieldIDs.put(nil) }
        let sideResult = sideDone.take()
        try mainResult.get()
        try sideResult.get()
    }

    /// Stops the side writer (the caller removes the files); false (nothing done) after `finish`
    /// or a first `abandon`.
    @discardableResult
    func abandon() -> Bool {
        guard !ended.testAndSet() else { return false }
        abandoned.withLock { $0 = true }
        batches.close()
        rest.put(nil)
        _ = sideDone.take()
        return true
    }

    /// The side file: the stored items as they come, then (once the main file's thread has named
    /// the fields) the user-field values and their indexes.
    private func writeSide() throws {
        var clock = PhaseClock("index (side):")
        let db = try IndexBuilder.openForBuilding(sidePath)
        try db.execute("BEGIN")
        try db.execute(IndexSchema.createSideTables)
        // The stored items are appended in key order, which needs only the pages along the
        // B-tree's right edge: a small cache while the loader still holds every item, the bulk
        // inserts' own before the values.
        try db.execute("PRAGMA cache_size = -\(IndexBuilder.indexCacheKiB)")
        let insertBody = try db.prepare("INSERT INTO store(key, body) VALUES(?, ?)")
        var ord: Int64 = 0
        while let batch = batches.take() {
            if abandoned.withLock({ $0 }) { return }
            for item in batch {
                try insertBody.run([.int(ord), .blob(codec.encode(item))])
                ord += 1
            }
        }
        clock.mark("items stored")
        guard let builder = rest.take() else { return }
        if let parts = builder.parts { try insertBody.run([.int(ItemStore.partsKey), .blob(parts)]) }
        let items = builder.items
        let ordinalOfID = builder.ordinals ?? Self.ordinals(items)
        guard let ids = fieldIDs.take() else { return }
        clock.mark("waited for the field names")
        try db.execute("PRAGMA cache_size = -\(IndexBuilder.insertCacheKiB)")
        let insertValue = try db.prepare(
            "INSERT INTO vals(ord, fid, seq, kind, fold, num, ref, full) VALUES(?, ?, ?, ?, ?, ?, ?, ?)")
        for (ord, item) in items.enumerated() {
            let ordValue = SQLValue.int(Int64(ord))
            for (seq, id) in item.taxonomyIDs.enumerated() {
                try Self.insert(
                    insertValue, ord: ordValue, fid: IndexBuilder.taxonomiesFieldID, seq: seq,
                    IndexedValue(kind: .reference, fold: id.lowercased(), referenceID: id),
                    ref: ordinalOfID[id].map(Int64.init))
            }
            for (key, json) in item.fields {
                let fid = ids[key]!
                for (seq, value) in IndexedValue.values(of: json) {
                    try Self.insert(
                        insertValue, ord: ordValue, fid: fid, seq: seq, value,
                        ref: value.referenceID.flatMap { ordinalOfID[$0] }.map(Int64.init))
                }
            }
        }
        clock.mark("values inserted")
        try db.execute("PRAGMA cache_size = -\(IndexBuilder.indexCacheKiB)")
        try db.execute(IndexSchema.createSideIndexes)
        clock.mark("value indexes")
        try db.prepare("INSERT INTO sidemeta(key, value) VALUES('build', ?)").run([.text(buildID)])
        try db.execute("PRAGMA analysis_limit = 1000; ANALYZE;")
        try db.execute("COMMIT")
        clock.mark("analyze and commit")
    }

    /// The ordinal of each id in `items` (the first, should one repeat).
    static func ordinals(_ items: [ExportItem]) -> [String: Int] {
        var ordinals: [String: Int] = [:]
        ordinals.reserveCapacity(items.count)
        for (ord, item) in items.enumerated() where ordinals[item.id] == nil { ordinals[item.id] = ord }
        return ordinals
    }

    private static func insert(
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
}
