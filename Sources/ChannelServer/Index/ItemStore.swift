// The items of a served channel, read from the index file on demand instead of held in memory
// (a channel of 1,000,000 items would take gigabytes as Swift values).
//
// Table `store(key, body)` of the index file: key = the item's ordinal, body = `ItemCodec`'s form
// of the item; key -1 holds the channel's types, taxonomies, variation sets and load issues. Ids
// and slugs are looked up in the `items` table (indexed). Reads run on the index's pooled
// read-only connections, so many threads read at once.

import OCEQCore

/// Read access to the items stored in an index file.
public final class ItemStore: Sendable {
    /// The number of items.
    public let count: Int
    private let pool: ConnectionPool
    private let codec: ItemCodec

    /// The key of the non-item content in `store`.
    static let partsKey: Int64 = -1

    init(pool: ConnectionPool, count: Int, codec: ItemCodec) {
        self.pool = pool
        self.count = count
        self.codec = codec
    }

    /// The item at `ordinal` (0 ..< count).
    public func item(at ordinal: Int) throws(IndexStorageError) -> ExportItem {
        try items(at: [ordinal])[0]
    }

    /// The items at `ordinals`, in that order, read on one connection (a page of results). A file
    /// that cannot be read any more (removed, damaged under the running server), a missing row or one
    /// that does not decode throws: the caller answers 500 with the reason, never "not found" or an
    /// empty stand-in, which would be answers that look right and are not.
    public func items(at ordinals: [Int]) throws(IndexStorageError) -> [ExportItem] {
        try rows("SELECT body FROM store WHERE key = ?1", at: ordinals, missing: "no stored item") {
            statement, ordinal in
            do {
                return try statement.withBlob(0) { try codec.decode($0) }
            } catch {
                throw IndexStorageError(
                    code: Self.corrupt, message: "the stored item at ordinal \(ordinal) does not decode: \(error)")
            }
        }
    }

    /// What a summary entry of a page shows of the items at `ordinals`, in that order, read from
    /// the `items` table without decoding the stored items (a page of 100 summaries decoded 100
    /// whole items to show four strings of each). A missing row throws, as in `items(at:)`.
    public func summaries(at ordinals: [Int]) throws(IndexStorageError) -> [ItemSummary] {
        try rows(
            "SELECT id, type, name, description FROM items WHERE ord = ?1", at: ordinals, missing: "no indexed item"
        ) {
            statement, _ in
            ItemSummary(
                id: statement.text(0) ?? "", type: statement.text(1) ?? "", name: statement.text(2) ?? "",
                description: statement.text(3) ?? "")
        }
    }

    /// `row` of the one row `sql` (an ordinal bound to `?1`) gives for each of `ordinals`, in that
    /// order, on one connection; an ordinal without a row throws "`missing` at ordinal N".
    private func rows<T>(
        _ sql: String, at ordinals: [Int], missing: String, _ row: (SQLiteStatement, Int) throws -> T
    ) throws(IndexStorageError) -> [T] {
        try read { db in
            let statement = try db.cached(sql)
            return try ordinals.map { ordinal in
                defer { statement.reset() }
                try statement.bind(1, .int(Int64(ordinal)))
                guard try statement.step() else {
                    throw IndexStorageError(code: Self.corrupt, message: "\(missing) at ordinal \(ordinal)")
                }
                return try row(statement, ordinal)
            }
        }
    }

    /// The ordinal of the first item with this id; nil when no item has it.
    public func ordinal(id: String) throws(IndexStorageError) -> Int? {
        try first("SELECT ord FROM items WHERE id = ?1 ORDER BY ord LIMIT 1", id)
    }

    /// The ordinal of the first item with this slug, exactly, else ignoring case; nil when none has it.
    public func ordinal(slug: String) throws(IndexStorageError) -> Int? {
        guard !slug.isEmpty else { return nil }
        if let exact = try first("SELECT ord FROM items WHERE slug = ?1 ORDER BY ord LIMIT 1", slug) { return exact }
        return try first("SELECT ord FROM items WHERE slug_f = ?1 ORDER BY ord LIMIT 1", slug.lowercased())
    }

    /// The number of digital assets.
    public func digitalAssetCount() throws(IndexStorageError) -> Int {
        try read { db -> Int in
            let statement = try db.cached("SELECT count(*) FROM items WHERE typeCategory = ?1")
            defer { statement.reset() }
            try statement.bind(1, .text(ContentTypeDefinition.digitalAssetType))
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// SQLite's SQLITE_CORRUPT: the file is readable but does not hold what the index wrote.
    static let corrupt: Int32 = 11

    /// Runs `body` on a pooled connection; any failure (opening the connection, SQLite, decoding)
    /// comes back as an `IndexStorageError`.
    private func read<T>(_ body: (SQLiteConnection) throws -> T) throws(IndexStorageError) -> T {
        do {
            return try pool.withConnection(body)
        } catch let error as IndexStorageError {
            throw error
        } catch {
            throw IndexStorageError(code: -1, message: "\(error)")
        }
    }

    /// The channel's non-item content stored with the items, or nil when the file has none.
    func parts() -> [UInt8]? {
        try? pool.withConnection { db -> [UInt8]? in
            let statement = try db.cached("SELECT body FROM store WHERE key = ?1")
            defer { statement.reset() }
            try statement.bind(1, .int(Self.partsKey))
            guard try statement.step() else { return nil }
            return statement.withBlob(0) { Array($0) }
        }
    }

    /// Reads the non-item content into `content`; false when missing or unreadable.
    func restoreParts(into content: inout ChannelContent) -> Bool {
        guard let bytes = parts() else { return false }
        do {
            try codec.decodeParts(bytes, into: &content)
            return true
        } catch {
            return false
        }
    }

    private func first(_ sql: String, _ text: String) throws(IndexStorageError) -> Int? {
        try read { db -> Int? in
            let statement = try db.cached(sql)
            defer { statement.reset() }
            try statement.bind(1, .text(text))
            return try statement.step() ? Int(statement.int64(0)) : nil
        }
    }
}
