// One Delivery item (read with `fields=all`) in the form a 2023 ("gen D") export stores it
// (export-format.md §3, §4): the standard keys, the top-level `fileExtension`/`mimeType`/
// `fileGroup`, `fields` with reference stubs `{id, type, typeCategory, name}` (plus
// `fileExtension` on asset stubs) and no links, an asset's `native` link on the source's
// management API without any token, and no `fields.renditions` (2023 exports list none; the
// server makes the system renditions from the native file). Content is written as it comes: the
// token lives only in links, which are dropped or rebuilt without it.

import DeliveryKit
import FoundationEssentials
import OCEQCore

/// Converts Delivery item JSON into exported item JSON.
struct ExportItemConverter {
    /// `https://host[:port]` of the source, for the management-API native link.
    var sourceOrigin: String

    static let typeCategoryAsset = "DigitalAssetType"

    /// The exported JSON of `item` (a Delivery object with `fields`).
    func convert(_ item: [String: JSON]) -> [String: JSON] {
        let id = item["id"]?.stringValue ?? ""
        let isAsset = item["typeCategory"]?.stringValue == Self.typeCategoryAsset
        var out: [String: JSON] = [:]
        for key in ["id", "type", "typeCategory", "name", "description", "createdDate", "updatedDate", "slug"] {
            if let value = item[key] { out[key] = value }
        }
        if let language = item["language"] { out["language"] = language }
        out["translatable"] = item["translatable"] ?? .bool(!isAsset)
        let group = item["fileGroup"]?.stringValue ?? (isAsset ? "Files" : "contentItem")
        let mime = item["mimeType"]?.stringValue ?? (isAsset ? "application/octet-stream" : "contentItem")
        out["fileExtension"] = isAsset ? item["fileExtension"] ?? .string(Self.extensionOf(item)) : "contentItem"
        out["mimeType"] = .string(mime)
        out["fileGroup"] = .string(group)
        out["status"] = "published"
        out["isPublished"] = true
        out["languageIsMaster"] = true
        out["tags"] = .object([:])
        out["taxonomies"] = Self.taxonomies(item["taxonomies"])

        var fields: [String: JSON] = [:]
        for (key, value) in item["fields"]?.objectValue ?? [:] {
            if isAsset && Self.assetSystemFields.contains(key) {
                fields[key] = value
            } else {
                fields[key] = Self.stubs(in: value)
            }
        }
        if isAsset {
            fields["renditions"] = nil
            fields["fileGroup"] = .string(group)
            let name = item["name"]?.stringValue ?? ""
            let href =
                sourceOrigin + "/content/management/api/v1.1/assets/" + URLEncoding.pathSegment(id) + "/native/"
                + URLEncoding.pathSegment(name)
            fields["native"] = .object([
                "links": .array([
                    .object([
                        "href": .string(href), "rel": "self", "method": "GET", "mediaType": .string(mime),
                    ])
                ])
            ])
        }
        out["fields"] = .object(fields)
        return out
    }

    /// A Delivery `taxonomies` block (`{items: [{id, name, shortName, categories: {items: [...]}}]}`)
    /// in the management form an export stores (`{data: [{id, name, shortName, categories:
    /// [{id, name, apiName, nodes}]}]}`), links dropped; `{}` when the item has no categories.
    static func taxonomies(_ block: JSON?) -> JSON {
        let taxonomies = block?["items"]?.arrayValue ?? []
        guard !taxonomies.isEmpty else { return .object([:]) }
        func node(_ json: JSON) -> JSON {
            var out: [String: JSON] = [:]
            for key in ["id", "name", "apiName"] { out[key] = json[key] }
            return .object(out)
        }
        let data: [JSON] = taxonomies.map { taxonomy in
            let categories: [JSON] = (taxonomy["categories"]?["items"]?.arrayValue ?? []).map { category in
                var out = node(category)
                out["nodes"] = .array((category["nodes"]?.arrayValue ?? []).map(node))
                return out
            }
            var out: [String: JSON] = ["categories": .array(categories)]
            for key in ["id", "name", "shortName"] { out[key] = taxonomy[key] }
            return .object(out)
        }
        return .object(["data": .array(data)])
    }

    /// The fields OCM keeps on every digital asset (`Image.json` lists them as system fields).
    static let assetSystemFields: Set<String> = [
        "metadata", "renditions", "mimeType", "size", "native", "fileGroup", "fileType", "advancedVideoInfo",
        "version",
    ]

    /// Reference stubs without links: `{id, type, typeCategory, name}` (+ `fileExtension` for assets).
    static func stubs(in value: JSON) -> JSON {
        switch FieldKind(value) {
        case .reference: return stub(value)
        case .list(.reference?): return .array((value.arrayValue ?? []).map(stub))
        default: return value
        }
    }

    /// The ids the reference fields of an exported item point at, in field-name order.
    static func referencedIDs(in item: [String: JSON]) -> [String] {
        var out: [String] = []
        for (_, value) in (item["fields"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch FieldKind(value) {
            case .reference: out += [value["id"]?.stringValue].compactMap { $0 }
            case .list(.reference?): out += (value.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            default: continue
            }
        }
        return out
    }

    private static func stub(_ value: JSON) -> JSON {
        guard case .object(let object) = value else { return value }
        var out: [String: JSON] = [:]
        for key in ["id", "type", "typeCategory", "name"] {
            if let member = object[key] { out[key] = member }
        }
        if object["typeCategory"]?.stringValue == typeCategoryAsset {
            let name = object["name"]?.stringValue ?? ""
            if let ext = object["fileExtension"] ?? extensionOf(name: name).map(JSON.string) {
                out["fileExtension"] = ext
            }
        }
        return .object(out)
    }

    private static func extensionOf(_ item: [String: JSON]) -> String {
        extensionOf(name: item["name"]?.stringValue ?? "") ?? ""
    }

    private static func extensionOf(name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return ext.isEmpty ? nil : ext
    }
}
