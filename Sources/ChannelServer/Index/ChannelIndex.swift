// The searchable index of one channel export: an SQLite file with FTS5, built once per export
// fingerprint and reopened from the cache directory afterwards.
//
// Open: `cacheDirectory/index-<fingerprint>.sqlite` (with its side file `.sqlite.side`, see
// IndexSchema) is reused when its stored schema version, item count, hash of the item ids and
// fingerprint all match and the side file is the one built with it; anything else (including a
// file SQLite cannot read) is deleted and rebuilt; the check and the start of a build are made by
// `PendingIndex`, as soon as the loader knows the items' order. A build writes both files as
// `<name>.<pid>-<random>.part` and renames them when complete (the side file first), so a crash
// never leaves a half-built index under the final name.
// Without a cache directory the index lives in a temporary file removed on deinit. A restart that
// finds the export unchanged (ExportStamp) reopens the file by fingerprint alone
// (`init(reopening:)`), checking only the schema version and fingerprint: the file also stores
// the items themselves (ItemStore), so nothing is read from the export.
//
// Search: `q` and `default` evaluate to a bitmap of matching ordinals, combined from kept
// per-condition bitmaps each read once with one SQL statement (MatchSets, LeafSets,
// SearchCompiler); the total is its population count. Ordering uses ranks and an order computed
// per sort field on first use (SortRanks): with one key and matches dense enough, the page is read
// by walking the field's order until it is full (only the stretch of it that can hold matches when
// the query bounds that field: MatchSets.span); otherwise the matches are gathered and the first
// offset + limit chosen by their keys. Searches run concurrently on pooled read-only connections.
//
// Semantics (delivery-api.md §5; where the documents are silent, our choice):
// - eq: standard text fields exact and case-sensitive; user fields case-insensitive (Unicode
//   lower case); numbers and datetimes compare as such; a date-only value on a datetime matches
//   the calendar date the value was written in (`2020-06-17` matches `2020-06-17T00:00-06:00`).
//   References compare by the referenced id. On a multivalued field any value may match.
// - ne: exactly NOT eq, so items without the field (or with null) match.
// - co: the value's words (split on anything but letters and digits, English stop words
//   dropped) - any of them as a word of the field, case- and diacritic-insensitive. HTML in
//   rich text is reduced to its text. On references, numbers, dates and booleans the value's
//   blank- or comma-separated tokens are compared like eq.
// - sw: case-insensitive prefix of the whole value (text values only).
// - mt: the words as a consecutive phrase (stop words dropped on both sides) in one value; `?`
//   is one character and `*` any run inside a word. No relevance ordering.
// - sm: a word within 2 edits (1 for three-letter words, 0 for shorter) of a word of the value.
// - ge gt le lt: numbers numerically, datetimes by instant; date-only values and values without
//   an offset are UTC. A value that is neither a number nor a datetime is an IndexError.
// - null and missing values match nothing except through ne/NOT. Unknown user fields match
//   nothing (cross-type queries may name user fields).
// - fields.ref.field: items whose reference field `ref` points at an item matching `field`;
//   a standard name at the second level means the standard field.
// - default: any of its words in name, description or any user text field; ANDed with q.
// - orderBy: missing values last in either direction; ties in export order; text by its first
//   64 lower-cased characters (code point order); unknown and unsortable fields ignored.

import FoundationEssentials
import OCEQCore

/// The search index of one channel export; evaluates `q`, `default` and `orderBy`.
public final class ChannelIndex: Sendable {
    /// The number of indexed items.
    public let itemCount: Int
    /// True when the index was opened from the on-disk cache rather than built.
    public let wasCached: Bool
    /// The index file.
    public let path: String

    private let temporary: Bool
    let pool: ConnectionPool
    private let catalog: IndexCatalog
    /// Ranks of the sortable fields used so far, by field name.
    private let ranks = Locked<[String: SortRanks]>([:])
    /// Match sets of single conditions, kept across searches.
    private let leaves = LeafSets(capacity: ChannelIndex.leafSetBytes)

    /// Bytes of per-condition match sets kept at most (a set is one bit per item: 12.5 kB at
    /// 100 000 items, so 2 600 sets there, 260 at 1 000 000).
    static let leafSetBytes = 32 << 20

    /// Builds the index for `items`, or reopens the cached one for `fingerprint`. `codec` and
    /// `parts` say how the items are stored and the channel's non-item content (`ItemStore`).
    public convenience init(items: [ExportItem], fingerprint: String, cacheDirectory: String?) throws {
        try self.init(items: items, fingerprint: fingerprint, cacheDirectory: cacheDirectory, codec: nil, parts: nil)
    }

    /// Reopens the cached index of `fingerprint` in `cacheDirectory` without the items (a restart
    /// whose export stamp matched); nil when there is none or it is of another schema.
    public init?(reopening fingerprint: String, cacheDirectory: String) {
        let path = PathText.joined(cacheDirectory, "index-\(Self.fileName(fingerprint)).sqlite")
        // Held while the pair is opened and checked: no other process renames or deletes it meanwhile.
        guard let lock = try? IndexLock(index: path, exclusive: false) else { return nil }
        defer { withExtendedLifetime(lock) {} }
        guard let files = try? IndexFiles(path: path), let db = try? SQLiteConnection(index: files),
            let meta = try? Self.meta(db),
            meta["schema"] == IndexSchema.version, meta["fingerprint"] == fingerprint, Self.sideMatches(db, meta),
            let count = meta["items"].flatMap(Int.init),
            let catalog = try? IndexCatalog(connection: db)
        else { return nil }
        self.path = path
        itemCount = count
        wasCached = true
        temporary = false
        self.catalog = catalog
        pool = ConnectionPool(files: files, first: db)
    }

    /// The items stored in the index file, their paths under `roots` (the channel's content
    /// folders, as `ItemCodec` wrote them).
    public func itemStore(roots: [String]) -> ItemStore {
        ItemStore(pool: pool, count: itemCount, codec: ItemCodec(roots: roots))
    }

    /// As above; `fieldKinds`: the items' user fields as the loader read them (nil: read here).
    convenience init(
        items: [ExportItem], fingerprint: String, cacheDirectory: String?, codec: ItemCodec?, parts: [UInt8]?,
        fieldKinds: FieldKinds? = nil
    ) throws {
        let pending = try PendingIndex(
            fingerprint: fingerprint, items: items, cacheDirectory: cacheDirectory, codec: codec ?? ItemCodec(roots: [])
        )
        pending.finished?(items[...])
        try self.init(pending: pending, items: items, fingerprint: fingerprint, parts: parts, fieldKinds: fieldKinds)
    }

    /// The index `pending` began: the cached one it found, or the build it started, finished for
    /// `items` (each given to `pending.finished` first).
    /// `ordinals`: each item id's ordinal as the loader made it (nil: made here).
    init(
        pending: PendingIndex, items: [ExportItem], fingerprint: String, parts: [UInt8]?, fieldKinds: FieldKinds?,
        ordinals: [String: Int]? = nil
    ) throws {
        itemCount = items.count
        path = pending.path
        temporary = pending.temporary
        let reused = pending.reused
        let opened =
            try reused?.files
            ?? pending.finishBuild(
                IndexBuilder(
                    items: items, fingerprint: fingerprint, codec: pending.codec, parts: parts,
                    fieldKinds: fieldKinds, ordinals: ordinals))
        wasCached = reused != nil
        let first = try reused?.connection ?? SQLiteConnection(index: opened)
        // The lock is held until the pair is checked (or built and renamed) and a connection is open.
        pending.unlock()
        catalog = try IndexCatalog(connection: first)
        pool = ConnectionPool(files: opened, first: first)
    }

    deinit {
        pool.drain()
        if temporary { Self.remove(path) }
    }

    /// Deletes the index whose main file is at `path`: that file and its side file.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: IndexSchema.sidePath(of: path))
    }

    /// Keeps a fingerprint usable in a file name.
    static func fileName(_ fingerprint: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let cleaned = String(fingerprint.map { allowed.contains($0) ? $0 : "_" }.prefix(128))
        return cleaned.isEmpty ? "_" : cleaned
    }

    /// The cached files and a connection to them if they hold this exact item list, else nil.
    static func openCached(
        path: String, items: [ExportItem], fingerprint: String
    ) throws -> (files: IndexFiles, connection: SQLiteConnection)? {
        let files = try IndexFiles(path: path)
        let db = try SQLiteConnection(index: files)
        let meta = try Self.meta(db)
        guard meta["schema"] == IndexSchema.version, meta["items"] == String(items.count),
            meta["fingerprint"] == fingerprint, meta["ids"] == IndexBuilder.idsHash(items), sideMatches(db, meta)
        else { return nil }
        return (files, db)
    }

    /// Whether the attached side file was written by the build that wrote the main file.
    private static func sideMatches(_ db: SQLiteConnection, _ meta: [String: String]) -> Bool {
        guard
            let statement = try? db.prepare("SELECT value FROM \(IndexSchema.sideSchema).sidemeta WHERE key = 'build'"),
            (try? statement.step()) == true, let build = statement.text(0)
        else { return false }
        return meta["side"] == build
    }

    private static func meta(_ db: SQLiteConnection) throws -> [String: String] {
        var meta: [String: String] = [:]
        let statement = try db.prepare("SELECT key, value FROM meta")
        while try statement.step() { meta[statement.text(0) ?? ""] = statement.text(1) }
        return meta
    }

    /// Deletes `.part` files of this index left by builds that died more than an hour ago.
    static func removeStaleParts(of path: String) {
        let files = FileManager.default
        let directory = PathText.parent(of: path)
        let prefix = PathText.lastComponent(of: path) + "."
        guard let names = try? files.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".part") {
            let full = PathText.joined(directory, name)
            if let modified = try? files.attributesOfItem(atPath: full)[.modificationDate] as? Date,
                modified.timeIntervalSinceNow < -3600
            {
                try? files.removeItem(atPath: full)
            }
        }
    }

    // MARK: search

    /// Evaluates a search. Throws `IndexError` for a request that cannot be evaluated (HTTP 400)
    /// and `IndexStorageError` for a failure of the index itself. Safe to call from many threads.
    public func search(_ request: SearchRequest) throws -> SearchResult {
        try pool.withConnection { db in try search(request, on: db) }
    }

    private func search(_ request: SearchRequest, on db: SQLiteConnection) throws -> SearchResult {
        let limit = max(0, request.limit)
        let offset = max(0, request.offset)
        var keys: [(ranks: SortRanks, descending: Bool)] = []
        var keyFields: [String] = []
        for key in request.orderBy {
            if let ranks = try sortRanks(key.field, db) {
                keys.append((ranks, key.order == .desc))
                keyFields.append(key.field)
            }
        }

        let (end, endOverflow) = offset.addingReportingOverflow(limit)
        let pageEnd = endOverflow ? Int.max : end
        let filters = request.query != nil || !TextFolding.words(request.defaultText ?? "").isEmpty
        if !filters && keys.isEmpty {
            let page = min(offset, itemCount)..<min(pageEnd, itemCount)
            return SearchResult(ordinals: Array(page), total: itemCount, hasMore: pageEnd < itemCount)
        }

        let sets = matchSets(on: db)
        let matches = filters ? try sets.matches(query: request.query, defaultText: request.defaultText) : nil
        let total = matches?.count ?? itemCount
        let (pageStart, pageLength) = (min(offset, total), min(pageEnd, total) - min(offset, total))
        // With one key, the stretch of its order the query confines the matches to (all of it when
        // the query does not bound the key's field).
        let span =
            keys.count == 1
            ? try sets.span(of: request.query, field: keyFields[0], ranks: keys[0].ranks)
                ?? 0..<keys[0].ranks.order.count : nil
        let ordinals: [Int]
        if keys.isEmpty {
            ordinals = matches?.members(skipping: pageStart, count: pageLength) ?? []
        } else if let span,
            let walked = Self.page(
                walking: keys[0].ranks, descending: keys[0].descending, within: span, matches, pageStart, pageLength,
                steps: Self.walkBudget(
                    matches: total, items: itemCount, span: span.count, needed: pageStart + pageLength))
        {
            ordinals = walked
        } else {
            let matched = matches?.ordinals ?? (0..<Int32(itemCount)).map { $0 }
            ordinals = matched.ordered(by: keys, first: pageEnd)[pageStart...].map { Int($0) }
        }
        // Without `countTotal` an unordered search used to stop reading after the page and one
        // more; its total stays unknown (-1) when matches followed.
        let known = !(filters && keys.isEmpty && !request.countTotal && pageEnd < Int.max && total > pageEnd)
        return SearchResult(ordinals: ordinals, total: known ? total : -1, hasMore: total > pageEnd)
    }

    /// How many steps of walking the sort order are worth trying before gathering every match and
    /// choosing the first `needed` by their keys (a few steps per match): 0 when walking is not
    /// expected to pay. Matches spread uniformly over the `span` walked (the positions of the
    /// order that can hold them) take about needed × span / matches steps; the budget also
    /// bounds the walk when they are not (matches in one stretch, late in the order, that the
    /// query does not bound).
    static func walkBudget(matches: Int, items: Int, span: Int, needed: Int) -> Int {
        guard matches > 0 else { return 0 }
        let gather = 3 * Double(matches) + Double(items) / 64
        return Double(needed) * Double(span) / Double(matches) < gather ? Int(gather) : 0
    }

    /// Matches `pageStart..<pageStart + pageLength` in the order of one key, walking the
    /// positions `span` of it; nil when that takes more than `steps` steps.
    private static func page(
        walking ranks: SortRanks, descending: Bool, within span: Range<Int>, _ matches: OrdinalSet?,
        _ pageStart: Int, _ pageLength: Int, steps: Int
    ) -> [Int]? {
        guard steps > 0 else { return nil }
        var page: [Int] = []
        guard pageLength > 0 else { return page }
        page.reserveCapacity(pageLength)
        var seen = 0
        var left = steps
        ranks.walk(descending: descending, within: span) { ord in
            left -= 1
            if matches?.contains(Int(ord)) ?? true {
                if seen >= pageStart { page.append(Int(ord)) }
                seen += 1
            }
            return page.count < pageLength && left > 0
        }
        return page.count == pageLength ? page : nil
    }

    /// The positions of `field`'s sort order outside which no match of `query` lies (see
    /// `MatchSets.span`); nil when the field is not sortable or the query does not bound it.
    func span(of query: QueryExpression?, orderedBy field: String) throws -> Range<Int>? {
        try pool.withConnection { db in
            guard let ranks = try sortRanks(field, db) else { return nil }
            return try matchSets(on: db).span(of: query, field: field, ranks: ranks)
        }
    }

    /// Match sets read on `db`, from the kept leaves and the sort ranks loaded so far.
    private func matchSets(on db: SQLiteConnection) -> MatchSets {
        MatchSets(catalog: catalog, connection: db, leaves: leaves, itemCount: itemCount) { try self.sortRanks($0, db) }
    }

    private func sortRanks(_ field: String, _ db: SQLiteConnection) throws -> SortRanks? {
        if let known = ranks.withLock({ $0[field] }) { return known }
        // Only sortable fields are cached, so arbitrary unknown names cannot grow the cache.
        guard let loaded = try SortRanks.load(field: field, catalog: catalog, count: itemCount, connection: db)
        else { return nil }
        ranks.withLock { $0[field] = loaded }
        return loaded
    }
}
