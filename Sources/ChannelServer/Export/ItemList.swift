import OCEQCore

/// The items of a channel in export order: an array while loading (and for channels made in
/// code), the index file's item store while serving (`ChannelService`), so a large channel's items
/// are read on demand rather than held in memory. Reading an element of a stored list decodes it
/// from SQLite: read each element once per use. Requests read a stored list through `item(at:)` and
/// `items(at:)`, which throw when the index cannot be read; the collection's subscript, for passes
/// over a list being loaded, gives an empty stand-in item instead.
public struct ItemList: RandomAccessCollection, Sendable {
    /// Where the items are.
    enum Storage: Sendable {
        case memory([ExportItem])
        case store(ItemStore)
    }

    let storage: Storage

    /// A list held in memory.
    public init(_ items: [ExportItem]) { storage = .memory(items) }

    /// A list read from an item store.
    public init(store: ItemStore) { storage = .store(store) }

    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of items.
    public var endIndex: Int {
        switch storage {
        case .memory(let items): items.count
        case .store(let store): store.count
        }
    }

    /// The item at ordinal `position`; for a stored list, an empty stand-in when the index cannot
    /// be read (requests use `item(at:)`, which says so).
    public subscript(position: Int) -> ExportItem {
        switch storage {
        case .memory(let items): items[position]
        case .store(let store):
            (try? store.item(at: position))
                ?? ExportItem(id: "", type: "", typeCategory: ContentTypeDefinition.contentType, name: "")
        }
    }

    /// The item at ordinal `position` (decoded from the store for a stored list).
    public func item(at position: Int) throws(IndexStorageError) -> ExportItem {
        switch storage {
        case .memory(let items): items[position]
        case .store(let store): try store.item(at: position)
        }
    }

    /// The items at `ordinals`, in that order (one read of the store for a stored list).
    public func items(at ordinals: [Int]) throws(IndexStorageError) -> [ExportItem] {
        switch storage {
        case .memory(let items): ordinals.map { items[$0] }
        case .store(let store): try store.items(at: ordinals)
        }
    }

    /// The summaries of the items at `ordinals`, in that order (from the index's `items` table for
    /// a stored list, without decoding the items).
    public func summaries(at ordinals: [Int]) throws(IndexStorageError) -> [ItemSummary] {
        switch storage {
        case .memory(let items): ordinals.map { ItemSummary(items[$0]) }
        case .store(let store): try store.summaries(at: ordinals)
        }
    }

    /// The array, when the list is held in memory.
    public var inMemory: [ExportItem]? {
        if case .memory(let items) = storage { return items }
        return nil
    }

    /// The store, when the list is read from one.
    public var store: ItemStore? {
        if case .store(let store) = storage { return store }
        return nil
    }

    /// The number of digital assets (counted in SQL for a stored list).
    public func digitalAssetCount() throws(IndexStorageError) -> Int {
        switch storage {
        case .memory(let items): items.count(where: \.isDigitalAsset)
        case .store(let store): try store.digitalAssetCount()
        }
    }
}
