import OCEQCore

/// Everything `oceq serve` answers from: the items, types, taxonomies and variation sets of one or
/// more exports merged into one channel.
public struct ChannelContent: Sendable {
    /// The items in a stable order: by content folder (in the order the paths were given), then by
    /// type folder name, then by file name (which is the id), all in byte order. A duplicate id
    /// keeps the first one read. Held in memory after loading; read from the index file's item
    /// store once `ChannelService` has built or reopened the index.
    public var items: ItemList
    /// The type definitions by type name, including inferred ones for types without a type file
    /// (gen A `DigitalAsset`).
    public var contentTypes: [String: ContentTypeDefinition]
    /// The taxonomy objects of `Taxonomies/*.json` (empty when no export has that folder).
    public var taxonomies: [JSON]
    /// The language variation sets of `ContentItems/VariationSets/`, one per set id.
    public var variationSets: [ExportVariationSet]
    /// What was skipped or repaired, each naming the file and why.
    public var issues: [ExportIssue]
    /// A stable hex hash of the export content: the same export gives the same string in every
    /// process and at every path; any change to an item, type, variation set, taxonomy or native
    /// file gives another.
    public var fingerprint: String
    /// The content folders read (absolute paths; extracted zips are under the cache directory).
    public var roots: [String]
    /// The user fields of `items` and their kinds of value, as the loader read them, for the index
    /// builder (which reads them itself when nil, as for a channel made from parts).
    var fieldKinds: FieldKinds? = nil
    /// The ordinal in `items` of each item id, as the loader made it while merging, for the index
    /// builder (which makes it itself when nil).
    var ordinals: [String: Int]? = nil

    /// A channel from parts (tests and tools).
    public init(
        items: [ExportItem] = [], contentTypes: [String: ContentTypeDefinition] = [:], taxonomies: [JSON] = [],
        variationSets: [ExportVariationSet] = [], issues: [ExportIssue] = [], fingerprint: String = "",
        roots: [String] = []
    ) {
        self.items = ItemList(items)
        self.contentTypes = contentTypes
        self.taxonomies = taxonomies
        self.variationSets = variationSets
        self.issues = issues
        self.fingerprint = fingerprint
        self.roots = roots
    }
}

/// Something in an export that was skipped or repaired while loading, e.g. an item file that is
/// not JSON or a reference to an item that is not in the export.
public struct ExportIssue: Sendable, Hashable, CustomStringConvertible {
    /// The file concerned (absolute path, or a zip entry name).
    public var file: String
    /// What is wrong and what was done, lower-case.
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: message`.
    public var description: String { "\(file): \(message)" }
}

/// A path that cannot be read as an export at all. Each message is one line naming the path.
public enum ExportError: Error, Sendable, CustomStringConvertible {
    /// No paths were given.
    case noPaths
    /// The path does not exist.
    case notFound(path: String)
    /// The path exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The path is neither an export folder, a folder holding one, nor an export zip.
    case notAnExport(path: String, reason: String)
    /// A zip that libarchive cannot read to the end.
    case corruptArchive(path: String, reason: String)
    /// A zip past a `ZipLimits` limit (a zip bomb, or too large an export); nothing of it is kept.
    case archiveTooLarge(path: String, reason: String)
    /// The extraction cache cannot be written.
    case cacheUnusable(path: String, reason: String)
    /// `strict` loading met issues; all are listed.
    case strict(issues: [ExportIssue])

    public var description: String {
        switch self {
        case .noPaths:
            return "no export path given"
        case .notFound(let path):
            return "\(path): no such file or directory"
        case .unreadable(let path, let reason):
            return "\(path): cannot read: \(reason)"
        case .notAnExport(let path, let reason):
            return "\(path): not an OCM content export (\(reason))"
        case .corruptArchive(let path, let reason):
            return "\(path): corrupt or truncated zip: \(reason)"
        case .archiveTooLarge(let path, let reason):
            return "\(path): zip refused: \(reason)"
        case .cacheUnusable(let path, let reason):
            return "\(path): cannot use the extraction cache: \(reason)"
        case .strict(let issues):
            guard let first = issues.first else { return "strict loading failed" }
            let more = issues.count > 1 ? " (and \(issues.count - 1) more)" : ""
            return "\(first)\(more)"
        }
    }
}
