// An item of the delivery API: a content item or a digital asset, decided by `typeCategory` as
// Oracle's SDK decides it (delivery-api.md §7.1). Only `id` is required; every other standard
// field is optional and read leniently, and the whole object is kept in `raw` for printing.
import OCEQCore

/// A content item or a digital asset.
public struct Asset: Sendable, Hashable, Identifiable {
    /// Content item or digital asset.
    public enum Kind: String, Sendable, Hashable {
        case contentItem
        case digitalAsset
    }

    /// `CORE…` for content items, `CONT…` for digital assets.
    public var id: String
    /// The content or asset type name.
    public var type: String
    /// `ContentType` or `DigitalAssetType`; absent in older responses.
    public var typeCategory: String?
    public var name: String
    public var description: String
    public var slug: String?
    public var language: String?
    public var translatable: Bool?
    public var mimeType: String?
    /// `contentItem`, `Images`, `Files`, `Videos`.
    public var fileGroup: String?
    public var fileExtension: String?
    public var createdDate: DeliveryDate?
    public var updatedDate: DeliveryDate?
    /// The `fields` object, or nil for a summary (a list read without `fields=all`, a reference stub).
    public var fields: [String: JSON]?
    public var links: [Link]
    /// The expanded `taxonomies` block, when present.
    public var taxonomies: [AssetTaxonomy]?
    /// The whole JSON object as received.
    public var raw: [String: JSON]

    /// Decodes an item object; `path` locates it in the document for error messages.
    public init(json: JSON, path: String = "") throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "an item object with a string \"id\"")
        id = try reader.requiredString("id")
        type = reader.string("type") ?? ""
        typeCategory = reader.string("typeCategory")
        name = reader.string("name") ?? ""
        description = reader.string("description") ?? ""
        slug = reader.string("slug")
        language = reader.string("language")
        translatable = reader.bool("translatable")
        mimeType = reader.string("mimeType")
        fileGroup = reader.string("fileGroup")
        fileExtension = reader.string("fileExtension")
        createdDate = reader.date("createdDate")
        updatedDate = reader.date("updatedDate")
        fields = reader.object("fields")
        links = reader.links()
        if let block = reader.members["taxonomies"], block.isNull == false {
            let taxonomyReader = try JSONObjectReader(
                block, path: reader.child("taxonomies"), expected: "an object with \"items\"")
            taxonomies = try taxonomyReader.array("items") { (item, path) throws(ShapeError) in
                try AssetTaxonomy(json: item, path: path)
            }
        } else {
            taxonomies = nil
        }
        raw = reader.members
    }

    /// Digital asset when `typeCategory` is `DigitalAssetType`, or when it is missing or empty and
    /// `type` is `DigitalAsset`; otherwise a content item.
    public var kind: Kind { Self.kind(type: type, typeCategory: typeCategory) }

    /// The kind of an item of this `type` and `typeCategory` (see `kind`).
    public static func kind(type: String, typeCategory: String?) -> Kind {
        if typeCategory == "DigitalAssetType" { return .digitalAsset }
        if (typeCategory ?? "").isEmpty && type == "DigitalAsset" { return .digitalAsset }
        return .contentItem
    }

    /// True for digital assets.
    public var isDigitalAsset: Bool { kind == .digitalAsset }

    /// True for content items.
    public var isContentItem: Bool { kind == .contentItem }

    /// The whole object as JSON.
    public var json: JSON { .object(raw) }

    /// The first link with this rel.
    public func link(rel: String) -> Link? { links.first(rel: rel) }

    /// The keys of `fields` that hold the asset's own metadata rather than user-defined fields.
    static let digitalAssetKeys: Set<String> = [
        "metadata", "size", "native", "renditions", "mimeType", "version", "fileType", "fileGroup",
        "advancedVideoInfo",
    ]

    /// The user-defined fields: all of `fields` for a content item; for a digital asset, `fields`
    /// without its metadata keys (`metadata`, `size`, `native`, `renditions`, ...). Empty for a summary.
    public var customFields: [String: JSON] {
        guard let fields else { return [:] }
        guard isDigitalAsset else { return fields }
        return fields.filter { !Asset.digitalAssetKeys.contains($0.key) }
    }

    /// The metadata of a digital asset (nil for content items and for summaries).
    public var digitalAsset: DigitalAssetFields? {
        guard isDigitalAsset, let fields else { return nil }
        return DigitalAssetFields(fields: fields, topLevelRenditions: raw["renditions"])
    }

    /// The `Thumbnail` rendition's `png` or `jpg` format, as the SDK picks it.
    public var thumbnailRendition: RenditionFormat? {
        guard let renditions = digitalAsset?.renditions,
            let thumbnail = renditions.first(where: { $0.name == "Thumbnail" })
        else { return nil }
        return thumbnail.formats.first { $0.format == "png" } ?? thumbnail.formats.first { $0.format == "jpg" }
    }
}

/// The metadata in `fields` of a digital asset (delivery-api.md §7.3).
public struct DigitalAssetFields: Sendable, Hashable {
    /// Width and height in pixels (sent as strings; numbers are accepted too).
    public var width: Int?
    public var height: Int?
    /// The size of the native file in bytes.
    public var size: Int?
    /// Links to the native file.
    public var nativeLinks: [Link]
    public var renditions: [Rendition]
    public var mimeType: String?
    public var fileType: String?
    public var version: String?
    public var fileGroup: String?
    /// The advanced-video descriptor, only when the JSON has one (the SDK always makes one, which
    /// misroutes video thumbnails).
    public var advancedVideoInfo: JSON?

    init(fields: [String: JSON], topLevelRenditions: JSON?) {
        let metadata = fields["metadata"]
        width = metadata?["width"]?.intValue
        height = metadata?["height"]?.intValue
        size = fields["size"]?.intValue
        nativeLinks = Link.list(fields["native"]?["links"])
        renditions = DigitalAssetFields.renditionList(fields: fields, topLevelRenditions: topLevelRenditions)
            .compactMap(Rendition.init(json:))
        mimeType = fields["mimeType"]?.stringValue
        fileType = fields["fileType"]?.stringValue
        version = fields["version"]?.stringValue ?? fields["version"]?.intValue.map(String.init)
        fileGroup = fields["fileGroup"]?.stringValue
        // Not `.flatMap { $0.isNull ? nil : $0 }`: that `nil` is `JSON.null` (JSON is
        // ExpressibleByNilLiteral), which made a video whose `advancedVideoInfo` is null an advanced one.
        if let info = fields["advancedVideoInfo"], !info.isNull {
            advancedVideoInfo = info
        } else {
            advancedVideoInfo = nil
        }
    }

    /// The renditions' JSON objects: `fields.renditions`, else the top-level `renditions.items`.
    static func renditionList(fields: [String: JSON], topLevelRenditions: JSON?) -> [JSON] {
        if case .array(let list)? = fields["renditions"] { return list }
        if case .array(let list)? = topLevelRenditions?["items"] { return list }
        return []
    }

    /// The rendition with this name: the one spelled exactly so, else the one that differs only in
    /// case (`medium` is `Medium`). Use its `name` in requests: the server compares names exactly.
    public func rendition(named name: String) -> Rendition? {
        renditions.first(named: name)
    }
}

/// A rendition of a digital asset (`Thumbnail`, `Small`, `Medium`, `Large`, custom).
public struct Rendition: Sendable, Hashable {
    public var name: String
    /// `responsiveimage`, ...
    public var type: String?
    public var formats: [RenditionFormat]

    /// A rendition with these values.
    public init(name: String, type: String?, formats: [RenditionFormat]) {
        self.name = name
        self.type = type
        self.formats = formats
    }

    init?(json: JSON) {
        guard let name = Self.name(in: json) else { return nil }
        self.name = name
        type = json["type"]?.stringValue
        formats = json["formats"]?.arrayValue?.compactMap(RenditionFormat.init(json:)) ?? []
    }

    /// A rendition's name in its JSON: `name`, else `apiName`.
    static func name(in json: JSON) -> String? {
        json["name"]?.stringValue ?? json["apiName"]?.stringValue
    }

    /// The format with this extension (`jpg`, `webp`).
    public func format(_ format: String) -> RenditionFormat? {
        formats.first(named: format) { $0.format }
    }
}

extension Collection where Element == Rendition {
    /// The rendition with this name, picked as `DigitalAssetFields.rendition(named:)` picks it.
    public func first(named name: String) -> Rendition? {
        first(named: name) { $0.name }
    }
}

extension Collection {
    /// The first element whose name is `wanted` exactly, else the first whose name differs from it
    /// only in case (`medium` is `Medium`, `JPG` is `jpg`): how renditions and formats are picked.
    fileprivate func first(named wanted: String, by name: (Element) -> String?) -> Element? {
        if let exact = first(where: { name($0) == wanted }) { return exact }
        let lowered = wanted.lowercased()
        return first { name($0)?.lowercased() == lowered }
    }
}

/// One format of a rendition.
public struct RenditionFormat: Sendable, Hashable {
    /// `jpg`, `webp`, `png`, ...
    public var format: String
    /// Bytes; 0 when not yet generated.
    public var size: Int?
    public var mimeType: String?
    public var width: Int?
    public var height: Int?
    public var links: [Link]

    /// A format with these values (no media type, dimensions or links unless given).
    public init(
        format: String, size: Int?, mimeType: String? = nil, width: Int? = nil, height: Int? = nil, links: [Link] = []
    ) {
        self.format = format
        self.size = size
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.links = links
    }

    init?(json: JSON) {
        guard let format = json["format"]?.stringValue else { return nil }
        self.format = format
        size = json["size"]?.intValue
        mimeType = json["mimeType"]?.stringValue
        width = json["metadata"]?["width"]?.intValue
        height = json["metadata"]?["height"]?.intValue
        links = Link.list(json["links"])
    }
}

/// A taxonomy in an item's expanded `taxonomies` block, with the item's categories in it.
public struct AssetTaxonomy: Sendable, Hashable {
    public var id: String
    public var name: String
    public var shortName: String?
    public var categories: [AssetCategory]
    public var links: [Link]

    init(json: JSON, path: String) throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a taxonomy object with a string \"id\"")
        id = try reader.requiredString("id")
        name = reader.string("name") ?? ""
        shortName = reader.string("shortName")
        links = reader.links()
        if let block = reader.members["categories"] {
            let categoryReader = try JSONObjectReader(
                block, path: reader.child("categories"), expected: "an object with \"items\"")
            categories = try categoryReader.array("items") { (item, path) throws(ShapeError) in
                try AssetCategory(json: item, path: path)
            }
        } else {
            categories = []
        }
    }
}

/// A category an item is in, with its path of nodes from the root.
public struct AssetCategory: Sendable, Hashable {
    public var id: String
    public var name: String
    public var apiName: String?
    public var nodes: [CategoryReference]
    public var links: [Link]

    init(json: JSON, path: String) throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a category object with a string \"id\"")
        id = try reader.requiredString("id")
        name = reader.string("name") ?? ""
        apiName = reader.string("apiName")
        nodes = try reader.array("nodes") { (node, path) throws(ShapeError) in
            try CategoryReference(json: node, path: path)
        }
        links = reader.links()
    }
}
