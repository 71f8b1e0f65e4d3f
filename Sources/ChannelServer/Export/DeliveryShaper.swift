// Turns export items into Delivery API (v1.1) item objects.
//
// What changes between the export (management form) and Delivery (export-format.md §6):
// management keys are dropped; `typeCategory`, `mimeType`, `fileGroup` (and `fileExtension` on
// assets) are always written; `language` is left out on non-translatable assets; dates always
// carry milliseconds; the item and every reference stub get links carrying `channelToken=`;
// `expand=all` adds `taxonomies` and an empty `renditions` (as 2022 servers do);
// assets get a native link on this server, `fields.size` from the file, `fields.metadata` with
// the pixel size as strings and, for images, the four system renditions in jpg, png and webp.
// With `expand`, reference fields become the referenced items' full data, one level deep.
//
// Cost per request: for items held in memory, id and slug lookups are built once in `init`; for
// items in the index file's item store (a served channel) ids and slugs are looked up there. A
// request then builds only the JSON it returns (with each item's percent-encoded id and file name).

import OCEQCore

/// Builds Delivery JSON for the items of a channel.
public struct DeliveryShaper: Sendable {
    private let content: ChannelContent
    /// Lookups for items held in memory (empty for a stored list, which its store answers).
    private let byId: [String: Int]
    private let bySlug: [String: Int]
    private let bySlugLowercased: [String: Int]
    /// The channel's taxonomies by id (an item shows its categories of these only).
    let taxonomyTrees: [String: ChannelTaxonomy]

    /// What is worked out per item before shaping it.
    struct Prepared: Sendable {
        var idSegment: String
        var fileSegment: String
        var referenceFields: Set<String>
        var mimeType: String
        var fileGroup: String
        var fileExtension: String
    }

    /// Builds the id and slug lookups (the first item wins on a duplicate).
    public init(content: ChannelContent) {
        self.content = content
        var byId: [String: Int] = [:]
        var bySlug: [String: Int] = [:]
        var bySlugLowercased: [String: Int] = [:]
        let inMemory = content.items.inMemory ?? []
        byId.reserveCapacity(inMemory.count)
        for (index, item) in inMemory.enumerated() {
            if byId[item.id] == nil { byId[item.id] = index }
            if let slug = item.slug {
                if bySlug[slug] == nil { bySlug[slug] = index }
                let lower = slug.lowercased()
                if bySlugLowercased[lower] == nil { bySlugLowercased[lower] = index }
            }
        }
        self.byId = byId
        self.bySlug = bySlug
        self.bySlugLowercased = bySlugLowercased
        self.taxonomyTrees = Dictionary(
            ChannelTaxonomy.all(content).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The content the shaper serves.
    public var channel: ChannelContent { content }

    /// The item with this id, or nil; throws when the index cannot be read (never "not found" then).
    public func item(id: String) throws(IndexStorageError) -> ExportItem? {
        guard let ordinal = try ordinal(id: id) else { return nil }
        return try content.items.item(at: ordinal)
    }

    /// The item with this slug (exact match first, then ignoring case), or nil.
    public func item(slug: String) throws(IndexStorageError) -> ExportItem? {
        if let store = content.items.store {
            guard let ordinal = try store.ordinal(slug: slug) else { return nil }
            return try content.items.item(at: ordinal)
        }
        if let index = bySlug[slug] ?? bySlugLowercased[slug.lowercased()] { return content.items[index] }
        return nil
    }

    /// The ordinal of the item with this id, or nil.
    private func ordinal(id: String) throws(IndexStorageError) -> Int? {
        if let store = content.items.store { return try store.ordinal(id: id) }
        return byId[id]
    }

    /// The type definition of an item's type, for `ExpandSpec.parse`.
    public func type(of item: ExportItem) -> ContentTypeDefinition? {
        content.contentTypes[item.type]
    }

    /// The body of `GET /items/{id}` (and `/items/.by.slug/{slug}`).
    public func full(_ item: ExportItem, context: LinkContext, expand: ExpandSpec) throws(IndexStorageError) -> JSON {
        let links = Links(context: context)
        return .object(try fullObject(item, links: links, expand: expand, nested: false))
    }

    /// One entry of an `/items` page asked with all fields (or a field list): the full item, whose
    /// links are just `self` and which carries an empty `taxonomies` block, as real list pages do.
    /// Without fields a page lists `summaryEntry`s.
    public func listEntry(
        _ item: ExportItem, context: LinkContext, expand: ExpandSpec
    ) throws(IndexStorageError) -> JSON {
        let links = Links(context: context)
        let prepared = Self.prepare(item)
        var object = listMembers(item, prepared: prepared, links: links, expand: expand)
        object["fields"] = .object(
            try shapedFields(item, prepared: prepared, links: links, expand: expand, nested: false))
        return .object(object)
    }

    /// `listEntry` in two parts, for a page written as text: the members but `fields`, and
    /// `fields` as JSON text written by `writer`, each stored value copied as it was written
    /// except references and objects (dates), which are shaped as `listEntry` shapes them and
    /// written. The same answer, without building and writing again every value of every item.
    /// Nil for a digital asset (whose fields are reshaped) or fields that do not read back as the
    /// stored form (never for a loaded export): use `listEntry`.
    func listEntryParts(
        _ item: ExportItem, context: LinkContext, expand: ExpandSpec, writer: JSONWriter
    ) throws(IndexStorageError) -> (members: [String: JSON], fields: [UInt8])? {
        guard !item.isDigitalAsset else { return nil }
        let stored = item.storedFields
        guard let members = stored.withUnsafeBufferPointer({ try? JSON.memberRanges($0) }) else { return nil }
        let links = Links(context: context)
        let prepared = Self.prepare(item)
        var text: [UInt8] = []
        text.reserveCapacity(stored.count + 64)
        text.append(UInt8(ascii: "{"))
        var previous: String?
        for (position, member) in members.enumerated() {
            // Stored fields are JSONWriter's text: names once each, in its order.
            if let previous, !(previous < member.name) { return nil }
            previous = member.name
            if position > 0 { text.append(UInt8(ascii: ",")) }
            JSONWriter.appendQuoted(member.name, into: &text)
            text.append(UInt8(ascii: ":"))
            let bytes = stored[
                (stored.startIndex + member.value.lowerBound)..<(stored.startIndex + member.value.upperBound)]
            if prepared.referenceFields.contains(member.name) || bytes.first == UInt8(ascii: "{") {
                guard let value = try? JSON.parse(bytes) else { return nil }
                writer.write(
                    try shapedField(
                        member.name, value, prepared: prepared, links: links, expand: expand, nested: false),
                    into: &text)
            } else {
                text.append(contentsOf: bytes)
            }
        }
        text.append(UInt8(ascii: "}"))
        return (listMembers(item, prepared: prepared, links: links, expand: expand), text)
    }

    /// The members of a list entry but `fields`: links are just `self`, and `taxonomies` is there.
    private func listMembers(
        _ item: ExportItem, prepared: Prepared, links: Links, expand: ExpandSpec
    ) -> [String: JSON] {
        var object = standardMembers(item, prepared: prepared, links: links, expand: expand, nested: false)
        object["links"] = links.array([links.item(prepared.idSegment, rel: "self", expand: nil)])
        object["taxonomies"] = taxonomies(of: item, links: links)
        return object
    }

    /// The summary entry of an `/items` page: `id`, `type`, `name`, `description` and a `self` link.
    public func summaryEntry(_ summary: ItemSummary, context: LinkContext) -> JSON {
        let links = Links(context: context)
        return .object([
            "id": .string(summary.id), "type": .string(summary.type), "name": .string(summary.name),
            "description": .string(summary.description),
            "links": links.array([links.item(URLEncoding.component(summary.id), rel: "self", expand: nil)]),
        ])
    }

    // MARK: - Building

    /// Top-level keys Delivery does not have (management and export-only keys).
    static let droppedKeys: Set<String> = [
        "createdBy", "updatedBy", "createdby", "updatedby", "createdByUser", "updatedByUser", "repositoryId",
        "status", "isPublished", "languageIsMaster", "version", "currentVersion", "latestVersion", "scheduled",
        "tags", "variations", "versionInfo", "lockInfo", "connectorFileInfo", "channels", "publishedChannels",
        "collections", "relationships", "suggestedTaxonomies", "workflows", "workflowInstances", "changes",
        "permissions", "varSetId", "externalFile", "links", "taxonomies", "data", "itemVariations",
    ]

    /// Keys the shaper writes itself.
    static let standardKeys: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "translatable", "createdDate",
        "updatedDate", "mimeType", "fileGroup", "fileExtension", "fields",
    ]

    private func fullObject(
        _ item: ExportItem, links: Links, expand: ExpandSpec, nested: Bool
    ) throws(IndexStorageError) -> [String: JSON] {
        let prepared = Self.prepare(item)
        var object = standardMembers(item, prepared: prepared, links: links, expand: expand, nested: nested)
        object["fields"] = .object(
            try shapedFields(item, prepared: prepared, links: links, expand: expand, nested: nested))
        let echoed = nested ? nil : expand.queryValue
        object["links"] = links.array([
            links.item(prepared.idSegment, rel: "self", expand: echoed),
            links.item(prepared.idSegment, rel: "canonical", expand: echoed),
            links.describedBy(prepared.idSegment),
        ])
        return object
    }

    /// An item's members but `fields` and `links`.
    private func standardMembers(
        _ item: ExportItem, prepared: Prepared, links: Links, expand: ExpandSpec, nested: Bool
    ) -> [String: JSON] {
        let isAsset = item.isDigitalAsset
        var object: [String: JSON] = [:]
        // The standard members, links, taxonomies and fields without growing the table on the way.
        object.reserveCapacity(item.raw.count + 18)
        // Keys that are neither management nor standard pass through unchanged.
        for (key, value) in item.raw where !Self.droppedKeys.contains(key) && !Self.standardKeys.contains(key) {
            object[key] = value
        }
        object["id"] = .string(item.id)
        object["type"] = .string(item.type)
        object["typeCategory"] = .string(item.typeCategory)
        object["name"] = .string(item.name)
        object["description"] = .string(item.description)
        if let slug = item.slug { object["slug"] = .string(slug) }
        let translatable = item.translatable ?? !isAsset
        if let language = item.language, translatable || !isAsset { object["language"] = .string(language) }
        object["translatable"] = .bool(translatable)
        if let created = item.createdDate {
            object["createdDate"] = ExportDateText.normalize(created, wrapStrings: true)
        }
        if let updated = item.updatedDate {
            object["updatedDate"] = ExportDateText.normalize(updated, wrapStrings: true)
        }
        object["mimeType"] = .string(prepared.mimeType)
        object["fileGroup"] = .string(prepared.fileGroup)
        if isAsset { object["fileExtension"] = .string(prepared.fileExtension) }
        if !nested, expand == .all {
            object["taxonomies"] = taxonomies(of: item, links: links)
            // 2022 servers add the item's custom renditions, none in an export (recorded getContentItem_all).
            object["renditions"] = .object(["items": .array([])])
        }
        return object
    }

    /// An item's `fields`: references shaped, dates normalised; an asset's fields as Delivery
    /// shows them.
    private func shapedFields(
        _ item: ExportItem, prepared: Prepared, links: Links, expand: ExpandSpec, nested: Bool
    ) throws(IndexStorageError) -> [String: JSON] {
        let stored = item.fields
        var fields: [String: JSON] = [:]
        fields.reserveCapacity(stored.count + 2)
        for (key, value) in stored {
            fields[key] = try shapedField(key, value, prepared: prepared, links: links, expand: expand, nested: nested)
        }
        if item.isDigitalAsset { shapeAssetFields(&fields, item: item, prepared: prepared, links: links) }
        return fields
    }

    /// One stored field as Delivery shows it: a reference shaped (expanded when asked), an object
    /// (a date) normalised, anything else as stored.
    private func shapedField(
        _ key: String, _ value: JSON, prepared: Prepared, links: Links, expand: ExpandSpec, nested: Bool
    ) throws(IndexStorageError) -> JSON {
        if prepared.referenceFields.contains(key) {
            return try reference(value, links: links, expand: !nested && expand.includes(key))
        }
        if case .object = value { return ExportDateText.normalize(value) }
        return value
    }

    /// An item's `taxonomies` block: each taxonomy it has categories in, with those categories
    /// and their `nodes` (root … category), as a real expanded item shows them. The loader has
    /// filled names and nodes from the channel's taxonomy trees; a taxonomy the export lacks is
    /// shown as the item names it.
    func taxonomies(of item: ExportItem, links: Links) -> JSON {
        var entries: [JSON] = []
        for assignment in TaxonomyAssignment.read(item.raw["taxonomies"]) {
            let tree = taxonomyTrees[assignment.taxonomyId]
            let categories: [JSON] = assignment.categories.compactMap { assigned in
                if let tree, tree.category(id: assigned.node.id) == nil { return nil }
                var object = assigned.node.json
                object["nodes"] = .array((assigned.nodes.isEmpty ? [assigned.node] : assigned.nodes).map(\.json))
                object["links"] = links.array([links.category(assignment.taxonomyId, assigned.node.id)])
                return object
            }
            guard !categories.isEmpty else { continue }
            entries.append(
                .object([
                    "id": .string(assignment.taxonomyId), "name": .string(tree?.name ?? assignment.name),
                    "shortName": .string(tree?.shortName ?? assignment.shortName),
                    "categories": .object(["items": .array(categories)]),
                    "links": links.array([links.taxonomy(assignment.taxonomyId)]),
                ]))
        }
        return .object(["items": .array(entries)])
    }

    /// `{id, name, apiName}` of a category, as in `nodes`, `parent` and `ancestors`.
    static func node(_ category: ExportCategory) -> JSON {
        .object(["id": .string(category.id), "name": .string(category.name), "apiName": .string(category.apiName)])
    }

    /// A reference field value: stubs with a `self` link, or (expanded) the targets' full data.
    private func reference(_ value: JSON, links: Links, expand: Bool) throws(IndexStorageError) -> JSON {
        switch value {
        case .array(let elements):
            return .array(
                try elements.map { (element) throws(IndexStorageError) in
                    try reference(element, links: links, expand: expand)
                })
        case .object(let stub):
            guard let id = stub["id"]?.stringValue else { return value }
            let storedType = stub["type"]?.stringValue
            let storedCategory = stub["typeCategory"]?.stringValue
            let storedName = stub["name"]?.stringValue
            // The target is read only when needed (the loader fills stubs, so rarely).
            let needsTarget = expand || storedType == nil || storedCategory == nil || storedName == nil
            let target = needsTarget ? try item(id: id) : nil
            if expand, let target {
                return .object(try fullObject(target, links: links, expand: .none, nested: true))
            }
            let type = storedType ?? target?.type ?? ""
            let category = storedCategory ?? target?.typeCategory ?? ReferenceStub.guessCategory(id: id, type: type)
            let name = storedName ?? target?.name ?? ""
            let idSegment = URLEncoding.component(id)
            return .object([
                "id": .string(id), "type": .string(type), "typeCategory": .string(category), "name": .string(name),
                "links": links.array([links.item(idSegment, rel: "self", expand: nil)]),
            ])
        default:
            return value
        }
    }

    static func prepare(_ item: ExportItem) -> Prepared {
        // Items from the loader (which sets `typeFolder`) know their reference fields; for items
        // built elsewhere they are recognised by their values' shape.
        let references =
            item.typeFolder != nil || !item.referenceFields.isEmpty
            ? item.referenceFields : Set(item.fields.filter { ReferenceStub.holdsStubs($0.value) }.keys)
        let idSegment = URLEncoding.component(item.id)
        guard item.isDigitalAsset else {
            // A content item has no file: no extension or file segment to work out (scanning the
            // names of a page of items for a dot was 4 % of the server's time under varied load).
            return Prepared(
                idSegment: idSegment, fileSegment: "", referenceFields: references,
                mimeType: item.mimeType ?? "contentItem", fileGroup: item.fileGroup ?? "contentItem", fileExtension: "")
        }
        let fileName =
            item.name.isEmpty ? (item.nativeFile?.split(separator: "/").last.map(String.init) ?? "") : item.name
        let ext = item.fileExtension ?? MediaTypes.fileExtension(ofName: fileName) ?? ""
        let mime = MediaTypes.canonical(
            item.mimeType ?? item.fields["mimeType"]?.stringValue ?? MediaTypes.mimeType(forExtension: ext)
                ?? "application/octet-stream")
        let group = item.fileGroup ?? item.fields["fileGroup"]?.stringValue ?? MediaTypes.fileGroup(forMimeType: mime)
        return Prepared(
            idSegment: idSegment, fileSegment: URLEncoding.component(fileName), referenceFields: references,
            mimeType: mime, fileGroup: group, fileExtension: ext)
    }
}

/// Href builders for one request's context.
struct Links {
    let root: String
    let token: String
    /// `links=none`: every `links` array is empty, and its links are never made.
    let omitted: Bool

    init(context: LinkContext) {
        root = context.apiRoot
        token = context.tokenQuery
        omitted = context.omitsLinks
    }

    /// A `links` array of `made` (built only when links are not omitted).
    func array(_ made: @autoclosure () -> [JSON]) -> JSON {
        omitted ? .array([]) : .array(made())
    }

    /// `{root}/items/{id}?channelToken=…[&expand=…]`.
    func item(_ idSegment: String, rel: String, expand: String?) -> JSON {
        var href = root + "/items/" + idSegment + "?" + token
        if let expand { href += "&expand=" + expand }
        return DeliveryLink.make(href: href, rel: rel, mediaType: "application/json")
    }

    /// `{root}/taxonomies/{id}?channelToken=…`.
    func taxonomy(_ id: String) -> JSON {
        DeliveryLink.make(
            href: root + "/taxonomies/" + URLEncoding.component(id) + "?" + token, rel: "self",
            mediaType: "application/json")
    }

    /// `{root}/taxonomies/{id}/categories/{categoryId}?channelToken=…`.
    func category(_ taxonomyId: String, _ categoryId: String) -> JSON {
        DeliveryLink.make(
            href: root + "/taxonomies/" + URLEncoding.component(taxonomyId) + "/categories/"
                + URLEncoding.component(categoryId) + "?" + token, rel: "self", mediaType: "application/json")
    }

    /// `{root}/metadata-catalog/items/{id}?channelToken=…`.
    func describedBy(_ idSegment: String) -> JSON {
        DeliveryLink.make(
            href: root + "/metadata-catalog/items/" + idSegment + "?" + token, rel: "describedby",
            mediaType: "application/schema+json")
    }

    /// `{root}/assets/{id}/native/{file}?channelToken=…`.
    func native(_ idSegment: String, file: String, mimeType: String) -> JSON {
        DeliveryLink.make(
            href: root + "/assets/" + idSegment + "/native/" + file + "?" + token, rel: "self", mediaType: mimeType)
    }

    /// `{root}/assets/{id}/{Rendition}/{file}?format=…&type=responsiveimage&channelToken=…`.
    func rendition(_ idSegment: String, name: String, file: String, format: String, mimeType: String) -> JSON {
        let href =
            root + "/assets/" + idSegment + "/" + name + "/" + file + "?format=" + format + "&type="
            + SystemRendition.renditionType + "&" + token
        return DeliveryLink.make(href: href, rel: "self", mediaType: mimeType)
    }
}
