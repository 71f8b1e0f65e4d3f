import OCEQCore

/// One item of a channel export (a content item or a digital asset), as read from its JSON file.
///
/// The standard fields are lifted out of the management-form JSON and normalised (a missing
/// `typeCategory` is inferred); `fields` keeps the exported user fields, references still as stubs
/// (`{id, type, ...}`), so the index and the delivery shaper share one source. The loader only
/// fills a stub's missing `name`/`typeCategory` from the item it points at (gen A stubs are
/// `{id, type}`) and gives every date object milliseconds.
public struct ExportItem: Sendable {
    /// `CORE…` for content items, `CONT…` for digital assets.
    public var id: String
    /// The content or asset type name (`Image`, `DigitalAsset`, `OCEGettingStartedArticle`, ...).
    public var type: String
    /// `ContentType` or `DigitalAssetType`, never empty.
    public var typeCategory: String
    public var name: String
    public var description: String
    public var slug: String?
    public var language: String?
    public var translatable: Bool?
    /// `{value, timezone}` objects as exported (values carry milliseconds).
    public var createdDate: JSON? {
        get { storedCreatedDate?.json }
        set { storedCreatedDate = newValue.map(StoredDate.init) }
    }
    public var updatedDate: JSON? {
        get { storedUpdatedDate?.json }
        set { storedUpdatedDate = newValue.map(StoredDate.init) }
    }
    /// The dates, packed when they have the usual shape (see `StoredDate`).
    var storedCreatedDate: StoredDate?
    var storedUpdatedDate: StoredDate?
    /// The user fields (content items) or asset fields (digital assets), management form.
    ///
    /// Kept as compact JSON bytes and parsed on each read: a parsed tree costs several times its
    /// text in memory, and a large channel (100 000 items) must stay within a few hundred MB.
    /// Read it once per use (`let fields = item.fields`), not in a loop.
    public var fields: [String: JSON] {
        get { (try? JSON.parse(storedFields))?.objectValue ?? [:] }
        set { storedFields = ArraySlice(JSONWriter().compactBytes(.object(newValue))) }
    }
    /// `fields` as compact UTF-8 JSON: a slice, as the loader moves the fields of the items it
    /// reads together into one buffer (`ItemReader.packFields`) so that they are freed in whole
    /// pages when the references in them are filled in.
    public internal(set) var storedFields: ArraySlice<UInt8> = ArraySlice("{}".utf8)
    /// Absolute path of the native binary on disk (digital assets only).
    public var nativeFile: String? {
        get { asset?.file.nativeFile }
        set { updateAsset(newValue) { $0.nativeFile = newValue } }
    }
    /// The canonical path of the export folder `nativeFile` must stay inside when it is opened (a
    /// link there swapped for one out of the export after loading is refused); nil: not checked.
    public var exportRoot: String? {
        get { asset?.file.exportRoot }
        set { updateAsset(newValue) { $0.exportRoot = newValue } }
    }
    /// The exported top-level keys that are neither management-only nor standard: what the
    /// shaper passes through unchanged (usually nothing).
    public var raw: [String: JSON]
    /// The file the item was read from, for messages.
    public var sourceFile: String {
        get {
            let name = sourceName ?? id + ".json"
            return sourceFolder.map { $0 + "/" + name } ?? name
        }
        set {
            let bytes = newValue.utf8
            if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) {
                sourceFolder = String(newValue[..<slash])
                sourceName = String(newValue[bytes.index(after: slash)...])
            } else {
                sourceFolder = nil
                sourceName = newValue
            }
            if let name = sourceName, Self.isNamed(name, after: id) { sourceName = nil }
        }
    }

    /// The folder part of `sourceFile` (nil: none). The loader gives every item of a folder the
    /// same string, so it is stored once, not once per item (180 bytes an item, 180 MB at 1M).
    var sourceFolder: String?
    /// The rest of `sourceFile` after `sourceFolder` (all of it when that is nil); nil: `<id>.json`,
    /// as export item files are named. Set `id` before `sourceFile`, and not after: the name
    /// follows the id while this is nil.
    var sourceName: String?

    /// The folder under `ContentItems/` the item was read from (usually equal to `type`).
    public var typeFolder: String?
    /// Delivery `mimeType`: `contentItem` for content items, the file's MIME type for assets
    /// (`image/jpg` is written `image/jpeg`). Nil when the item was not built by the loader.
    public var mimeType: String?
    /// Delivery `fileGroup`: `contentItem`, `Images`, `Videos` or `Files`.
    public var fileGroup: String?
    /// Delivery `fileExtension` of an asset (lower-case, from its name), nil for content items.
    public var fileExtension: String? {
        get { asset?.file.fileExtension }
        set { updateAsset(newValue) { $0.fileExtension = newValue } }
    }
    /// The byte size of `nativeFile` on disk (the export's `fields.size` is not trusted).
    public var nativeSize: Int? {
        get { asset?.file.nativeSize }
        set { updateAsset(newValue) { $0.nativeSize = newValue } }
    }
    /// The pixel size of an image asset: `fields.metadata` when it holds numbers, else read from
    /// the image header.
    public var imageSize: ImageSize? {
        get { asset?.file.imageSize }
        set { updateAsset(newValue) { $0.imageSize = newValue } }
    }
    /// What only assets have, out of line: nil for a content item, which then holds 8 bytes for
    /// them instead of 88 (the items of a large build are all held at once; shared on copy,
    /// copied on write).
    private(set) var asset: AssetFileBox?
    /// Names of the `fields` holding reference stubs (single or list), from the type definition
    /// or, without one, from the values' shape.
    public var referenceFields: Set<String>

    /// True for digital assets.
    public var isDigitalAsset: Bool { typeCategory == "DigitalAssetType" }

    /// True when `fileName` is `<id>.json` (compared without making that string).
    static func isNamed(_ fileName: String, after id: String) -> Bool {
        fileName.utf8.count == id.utf8.count + 5 && fileName.utf8.starts(with: id.utf8)
            && fileName.utf8.reversed().starts(with: ".json".utf8.reversed())
    }

    /// Changes the asset facts; setting nil where there are none makes no box.
    private mutating func updateAsset<Value>(_ newValue: Value?, _ change: (inout AssetFile) -> Void) {
        if asset == nil {
            guard newValue != nil else { return }
            asset = AssetFileBox(AssetFile())
        } else if !isKnownUniquelyReferenced(&asset) {
            asset = AssetFileBox(asset!.file)
        }
        change(&asset!.file)
    }

    public init(
        id: String, type: String, typeCategory: String, name: String, description: String = "",
        slug: String? = nil, language: String? = nil, translatable: Bool? = nil,
        createdDate: JSON? = nil, updatedDate: JSON? = nil, fields: [String: JSON] = [:],
        nativeFile: String? = nil, raw: [String: JSON] = [:], sourceFile: String = "",
        typeFolder: String? = nil, mimeType: String? = nil, fileGroup: String? = nil, fileExtension: String? = nil,
        nativeSize: Int? = nil, imageSize: ImageSize? = nil, referenceFields: Set<String> = []
    ) {
        self.id = id
        self.type = type
        self.typeCategory = typeCategory
        self.name = name
        self.description = description
        self.slug = slug
        self.language = language
        self.translatable = translatable
        self.storedCreatedDate = createdDate.map(StoredDate.init)
        self.storedUpdatedDate = updatedDate.map(StoredDate.init)
        self.storedFields = ArraySlice(JSONWriter().compactBytes(.object(fields)))
        self.raw = raw
        self.typeFolder = typeFolder
        self.mimeType = mimeType
        self.fileGroup = fileGroup
        self.referenceFields = referenceFields
        self.nativeFile = nativeFile
        self.fileExtension = fileExtension
        self.nativeSize = nativeSize
        self.imageSize = imageSize
        self.sourceFile = sourceFile
    }
}
