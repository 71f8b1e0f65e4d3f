// What `download` reads of an item to plan its file: the item's id, name, kind, file group and
// extension, and for a digital asset the native file's size and the renditions' names, types and
// formats (`DownloadPlan.source`). An item held already (one item read whole, a `$var`'s rows) is
// taken from its `Asset`; an item of a selection's page is read where it lies in the page
// (`DownloadItem.reading`, a `JSONReader`), every other value of it checked and passed over.
//
// Building each item of the page as an `Asset` (a tree of dictionaries and strings) and letting it
// go cost about 100,000 instructions an item and as much again to free, a fifth of the command's
// user-space work for 74 images (callgrind); read in place, an item costs the check of its bytes and
// the few strings it keeps. Both ways give the same item: `DownloadItemTests` reads every item of
// the fixtures and exports both ways and compares them, so what is read here follows `Asset`'s
// rules (the last of a repeated member counts, a member of the wrong kind reads as absent, the
// renditions are `fields.renditions`, else the top-level `renditions.items`).

import DeliveryKit
import DeliveryTransport
import OCEQCore

/// What `download` plans a file from (`DownloadPlan.source`).
struct DownloadItem: Sendable, Equatable {
    /// `CONT…` for a digital asset.
    var id: String
    var name: String
    /// The item's type (`Image`, or a content type).
    var type: String
    var isDigitalAsset: Bool
    /// The item came with its `fields` (a hit of a search pinning no one type comes without).
    var hasFields: Bool
    /// `Images`, `Videos`, ...: the top-level `fileGroup`, else the digital asset's `fields.fileGroup`,
    /// else empty (as `DeliveryAPI.downloadThumbnail(for:)` takes it).
    var fileGroup: String
    var fileExtension: String?
    /// A digital asset's native file size (`fields.size`).
    var size: Int?
    /// A digital asset whose `fields.advancedVideoInfo` holds something, not null (a video's thumbnail
    /// is then asked for as an advanced video's).
    var advancedVideo = false
    /// A digital asset's renditions, each with its formats' names and sizes (no links, media types
    /// or dimensions: a download reads none).
    var renditions: [Rendition] = []

    /// What `asset` gives to a download.
    init(_ asset: Asset) {
        id = asset.id
        name = asset.name
        type = asset.type
        isDigitalAsset = asset.isDigitalAsset
        hasFields = asset.fields != nil
        fileExtension = asset.fileExtension
        let thumbnail = DeliveryAPI.downloadThumbnail(for: asset)
        fileGroup = thumbnail.fileGroup
        advancedVideo = thumbnail.advancedVideo
        if let fields = asset.digitalAsset {
            size = fields.size
            renditions = fields.renditions.map { rendition in
                Rendition(
                    name: rendition.name, type: rendition.type,
                    formats: rendition.formats.map { RenditionFormat(format: $0.format, size: $0.size) })
            }
        }
    }

    /// Reads an item of a page (`DeliveryClient.fetchDeferred`): as `Asset(json:)` reads it, with
    /// the same `ShapeError` for an item that is not an object with a string `id`.
    static let reading: DeferredElementReader<DownloadItem> = { reader, path in
        try DownloadItem(reading: &reader, path: path)
    }

    /// The item at `reader`, read in place.
    init(reading reader: inout JSONReader, path: String) throws {
        guard reader.atObject() else {
            throw ShapeError(path: path, expected: "an item object with a string \"id\"", found: try reader.value())
        }
        var id: JSON?
        var name: String?
        var type: String?
        var typeCategory: String?
        var fileGroup: String?
        var fileExtension: String?
        var fields: Fields?
        var topLevelRenditions: [Rendition]?
        try reader.readObject { (reader: inout JSONReader, member: JSONReader.Name) throws(JSONParseError) in
            switch member {
            case "id": id = try reader.value()
            case "name": name = try reader.string()
            case "type": type = try reader.string()
            case "typeCategory": typeCategory = try reader.string()
            case "fileGroup": fileGroup = try reader.string()
            case "fileExtension": fileExtension = try reader.string()
            case "fields": fields = try Fields(reading: &reader)
            case "renditions":
                topLevelRenditions = nil
                try reader.readObject { (reader: inout JSONReader, member: JSONReader.Name) throws(JSONParseError) in
                    if member.matches("items") { topLevelRenditions = try Self.renditions(&reader) }
                }
            default: break
            }
        }
        guard case .string(let idText)? = id else {
            throw ShapeError(
                path: path, expected: "an object with a string \"id\"",
                found: id.map { "\"id\": \($0.kindDescription)" } ?? "no \"id\"")
        }
        self.id = idText
        self.name = name ?? ""
        self.type = type ?? ""
        isDigitalAsset = Asset.kind(type: self.type, typeCategory: typeCategory) == .digitalAsset
        hasFields = fields != nil
        self.fileGroup = fileGroup ?? ""
        self.fileExtension = fileExtension
        if isDigitalAsset, let fields {
            self.fileGroup = fileGroup ?? fields.fileGroup ?? ""
            size = fields.size
            advancedVideo = fields.advancedVideo
            renditions = fields.renditions ?? topLevelRenditions ?? []
        }
    }

    /// What a digital asset's `fields` object gives.
    private struct Fields {
        var size: Int?
        var fileGroup: String?
        var advancedVideo = false
        /// Nil when `renditions` is missing or not an array.
        var renditions: [Rendition]?

        /// The object at `reader`; nil (passed over) when it is not one.
        init?(reading reader: inout JSONReader) throws(JSONParseError) {
            var fields = Fields()
            let isObject = try reader.readObject {
                (reader: inout JSONReader, member: JSONReader.Name) throws(JSONParseError) in
                switch member {
                case "size": fields.size = try reader.value().intValue
                case "fileGroup": fields.fileGroup = try reader.string()
                case "advancedVideoInfo": fields.advancedVideo = !(try reader.value().isNull)
                case "renditions": fields.renditions = try DownloadItem.renditions(&reader)
                default: break
                }
            }
            guard isObject else { return nil }
            self = fields
        }

        private init() {}
    }

    /// The renditions of the array at `reader` (an element that is not an object with a `name` or
    /// an `apiName` left out); nil when it is not an array.
    private static func renditions(_ reader: inout JSONReader) throws(JSONParseError) -> [Rendition]? {
        var list: [Rendition] = []
        list.reserveCapacity(4)
        let isArray = try reader.readArray { (reader: inout JSONReader) throws(JSONParseError) in
            var name: String?
            var apiName: String?
            var type: String?
            var formats: [RenditionFormat] = []
            let isObject = try reader.readObject {
                (reader: inout JSONReader, member: JSONReader.Name) throws(JSONParseError) in
                switch member {
                case "name": name = try reader.string()
                case "apiName": apiName = try reader.string()
                case "type": type = try reader.string()
                case "formats": formats = try Self.formats(&reader)
                default: break
                }
            }
            if isObject, let chosen = name ?? apiName {
                list.append(Rendition(name: chosen, type: type, formats: formats))
            }
        }
        return isArray ? list : nil
    }

    /// The formats of the array at `reader` (an element that is not an object with a string
    /// `format` left out); none when it is not an array.
    private static func formats(_ reader: inout JSONReader) throws(JSONParseError) -> [RenditionFormat] {
        var list: [RenditionFormat] = []
        list.reserveCapacity(3)
        try reader.readArray { (reader: inout JSONReader) throws(JSONParseError) in
            var format: String?
            var size: Int?
            let isObject = try reader.readObject {
                (reader: inout JSONReader, member: JSONReader.Name) throws(JSONParseError) in
                switch member {
                case "format": format = try reader.string()
                case "size": size = try reader.value().intValue
                default: break
                }
            }
            if isObject, let format { list.append(RenditionFormat(format: format, size: size)) }
        }
        return list
    }
}
