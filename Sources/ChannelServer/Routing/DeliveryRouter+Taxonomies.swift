import OCEQCore

// E8–E11: taxonomies and categories (ocm-delivery-extras.md §2), from the export's `Taxonomies/`
// folder as `ChannelTaxonomy` reads it; the lists are empty when the export has none.
//
// `/taxonomies` pages with `limit`, `offset`, `totalResults` and `orderBy` (`name`, `createdDate`,
// `updatedDate`). `/taxonomies/{id}/categories` searches with `q` over `id`, `name`, `apiName`,
// `description`, `parent.id|name|apiName` and `ancestors.id|name|apiName` (`eq` exact — case-
// insensitive except on ids — `ne`, `co` any word, `sw` prefix; AND/OR/NOT), sorts with `orderBy`
// (`name`, `position`; default: the tree, parents first) and adds the optional keys `fields=` names
// (`parent`, `ancestors`, `keywords`, `synonyms`, `relatedCategories`, `customProperties`,
// `children`, or `all`). `expand=children` or `expand=all` (what Oracle's SDKs send on both the search
// and a read) inlines each category's children, by position, the first 1000 of them (OCM's
// documented bound). Each category carries a self link.
extension DeliveryRouter {
    func taxonomies(_ request: ServerRequest, _ rest: [String], _ context: LinkContext) throws(APIError) -> HTTPResponse
    {
        let trees = ChannelTaxonomy.all(content)
        if rest.isEmpty {
            var all = trees
            try sortTaxonomies(&all, request)
            let entries = all.map { taxonomy(summary: $0.raw, $0.id, context) }
            return json(try page(entries, request, context, resource: "taxonomies"), request)
        }
        guard let tree = trees.first(where: { $0.id == rest[0] }) else {
            throw .notFound("no taxonomy \(rest[0]) in this channel")
        }
        let base = "taxonomies/\(URLEncoding.component(tree.id))"
        if rest.count == 1 {
            var one = taxonomy(summary: tree.raw, tree.id, context)
            one["links"] = resourceLinks(request, context, path: base)
            return json(one, request)
        }
        guard rest[1] == "categories", rest.count <= 3 else {
            throw .notFound("no resource '\(rest.dropFirst().joined(separator: "/"))' under a taxonomy")
        }
        let wanted = optionalCategoryKeys(request)
        if rest.count == 3 {
            guard let category = tree.category(id: rest[2]) else {
                throw .notFound("no category \(rest[2]) in taxonomy \(tree.id)")
            }
            var keys = wanted
            keys.formUnion(["parent", "ancestors"])
            var object = categoryObject(category, tree, keys: keys, context)
            let path = "\(base)/categories/\(URLEncoding.component(category.id))"
            object["links"] = resourceLinks(request, context, path: path)
            return json(object, request)
        }
        var categories = tree.categories
        if let q = request.parameter("q"), !q.trimmingSpaces().isEmpty {
            guard q.utf8.count <= configuration.maximumQueryLength else {
                throw .badRequest("q is longer than \(configuration.maximumQueryLength) bytes")
            }
            let expression: QueryExpression
            do {
                expression = try QueryParser.parseAnyFields(q)
            } catch {
                throw .badRequest("invalid q: \(error)")
            }
            var kept: [ExportCategory] = []
            for category in categories where try CategoryQuery.matches(expression, category, tree) {
                kept.append(category)
            }
            categories = kept
        }
        try sortCategories(&categories, request)
        let entries = categories.map { categoryObject($0, tree, keys: wanted, context) }
        return json(try page(entries, request, context, resource: "\(base)/categories"), request)
    }

    /// `GET /items/{id}/taxonomies` (ocm-delivery-extras.md §2.1): the item's taxonomies with its
    /// categories, as `expand=all` shows them, and a self link.
    func itemTaxonomies(_ item: ExportItem, _ request: ServerRequest, _ context: LinkContext) -> JSON {
        var block = shaper.taxonomies(of: item, links: Links(context: context))
        block["links"] = .array(
            filterLinkList(
                [link(context, "items/\(URLEncoding.component(item.id))/taxonomies", rel: "self")], request))
        return block
    }

    /// A list envelope over `entries`: `limit` (default 100, at most the maximum), `offset`,
    /// `totalResults`, and the envelope links.
    private func page(
        _ entries: [JSON], _ request: ServerRequest, _ context: LinkContext, resource: String
    )
        throws(APIError) -> JSON
    {
        let limit = try integer(request, "limit", default: 100)
        let offset = try integer(request, "offset", default: 0)
        guard limit <= configuration.maximumLimit else {
            throw .badRequest("limit must be at most \(configuration.maximumLimit), got \(limit)")
        }
        let slice = Array(entries.dropFirst(offset).prefix(limit))
        var envelope: [String: JSON] = [
            "hasMore": .bool(offset + slice.count < entries.count), "offset": .int(offset), "count": .int(slice.count),
            "limit": .int(limit), "items": .array(slice.map { filterLinks($0, request) }),
        ]
        if request.parameter("totalResults")?.lowercased() == "true" { envelope["totalResults"] = .int(entries.count) }
        envelope["links"] = .array(
            envelopeLinks(
                request, context, resource: resource, offset: offset, limit: limit, count: slice.count,
                total: entries.count))
        return .object(envelope)
    }

    /// A taxonomy as the delivery API shows it: its own keys, no categories, a self link.
    func taxonomy(summary: JSON, _ id: String, _ context: LinkContext) -> JSON {
        var members = summary.objectValue ?? [:]
        for key in members.keys
        where !["id", "name", "description", "shortName", "customProperties", "createdDate", "updatedDate"].contains(
            key)
        {
            members[key] = nil
        }
        for key in ["createdDate", "updatedDate"] {
            if let date = members[key] { members[key] = ExportDateText.normalize(date, wrapStrings: true) }
        }
        members["links"] = [link(context, "taxonomies/\(URLEncoding.component(id))", rel: "self")]
        return .object(members)
    }

    /// A category: `id, name, description, apiName, position`, the optional `keys` asked for,
    /// and a self link.
    func categoryObject(
        _ category: ExportCategory, _ tree: ChannelTaxonomy, keys: Set<String>, _ context: LinkContext
    )
        -> JSON
    {
        var object: [String: JSON] = [
            "id": .string(category.id), "name": .string(category.name), "description": .string(category.description),
            "apiName": .string(category.apiName), "position": .int(category.position),
        ]
        let nodes = tree.nodes(of: category.id)
        if keys.contains("parent") {
            object["parent"] =
                category.parentId.flatMap { tree.category(id: $0) }.map(DeliveryShaper.node) ?? .null
        }
        if keys.contains("ancestors") { object["ancestors"] = .array(nodes.dropLast().map(DeliveryShaper.node)) }
        for key in ExportCategory.optionalKeys where keys.contains(key) {
            if let value = category.extra[key] { object[key] = value }
        }
        if keys.contains("children") {
            // A stable sort: siblings of one position keep the export's order.
            let all = tree.categories.filter { $0.parentId == category.id }.enumerated()
                .sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }.map(\.element)
            let children = all.prefix(Self.maximumExpandedChildren)
            let items: [JSON] = children.map { child in
                [
                    "id": .string(child.id), "name": .string(child.name), "description": .string(child.description),
                    "apiName": .string(child.apiName), "position": .int(child.position),
                    "links": [self.categoryLink(tree, child, context)],
                ]
            }
            object["children"] = [
                "hasMore": .bool(all.count > items.count), "offset": 0, "count": .int(items.count),
                "limit": .int(items.count), "items": .array(items),
            ]
        }
        object["links"] = [categoryLink(tree, category, context)]
        return .object(object)
    }

    private func categoryLink(_ tree: ChannelTaxonomy, _ category: ExportCategory, _ context: LinkContext) -> JSON {
        link(
            context,
            "taxonomies/\(URLEncoding.component(tree.id))/categories/\(URLEncoding.component(category.id))",
            rel: "self")
    }

    /// The most children `expand` inlines in one category (OCM's documented bound).
    static let maximumExpandedChildren = 1000

    /// The optional category keys `fields=` asks for (`all`: every one), and `children` when
    /// `expand=` names `children` or `all`.
    private func optionalCategoryKeys(_ request: ServerRequest) -> Set<String> {
        let all: Set<String> = Set(ExportCategory.optionalKeys + ["parent", "ancestors", "children"])
        var keys: Set<String> = []
        if let expand = request.parameter("expand"),
            expand.split(separator: ",").contains(where: {
                ["children", "all"].contains($0.trimmingSpaces().lowercased())
            })
        {
            keys.insert("children")
        }
        guard let text = request.parameter("fields") else { return keys }
        for term in text.split(separator: ",") {
            let name = String(term.trimmingSpaces())
            if name.lowercased() == "all" { return all }
            if let known = all.first(where: { $0.lowercased() == name.lowercased() }) { keys.insert(known) }
        }
        return keys
    }

    /// `orderBy` on categories: `name` (case-insensitive) and `position`; other keys are ignored,
    /// as OCM ignores unknown sort fields.
    private func sortCategories(_ categories: inout [ExportCategory], _ request: ServerRequest) throws(APIError) {
        let keys = try sortKeys(request)
        guard !keys.isEmpty else { return }
        let order = Dictionary(uniqueKeysWithValues: categories.enumerated().map { ($1.id, $0) })
        categories.sort { a, b in
            for key in keys {
                let ascending: Bool
                switch key.field.lowercased() {
                case "name":
                    let (x, y) = (a.name.lowercased(), b.name.lowercased())
                    if x == y { continue }
                    ascending = x < y
                case "position":
                    if a.position == b.position { continue }
                    ascending = a.position < b.position
                default: continue
                }
                return key.order == .asc ? ascending : !ascending
            }
            return order[a.id, default: 0] < order[b.id, default: 0]
        }
    }

    /// `orderBy` on taxonomies: `name`, `createdDate`, `updatedDate`.
    private func sortTaxonomies(_ taxonomies: inout [ChannelTaxonomy], _ request: ServerRequest) throws(APIError) {
        let keys = try sortKeys(request)
        guard !keys.isEmpty else { return }
        func value(_ taxonomy: ChannelTaxonomy, _ field: String) -> String? {
            switch field {
            case "name": return taxonomy.name.lowercased()
            case "createddate", "updateddate":
                let date = taxonomy.raw[field == "createddate" ? "createdDate" : "updatedDate"]
                return date?["value"]?.stringValue ?? date?.stringValue
            default: return nil
            }
        }
        let order = Dictionary(taxonomies.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        taxonomies.sort { a, b in
            for key in keys {
                let field = key.field.lowercased()
                guard let x = value(a, field), let y = value(b, field), x != y else { continue }
                return key.order == .asc ? x < y : x > y
            }
            return order[a.id, default: 0] < order[b.id, default: 0]
        }
    }

    private func sortKeys(_ request: ServerRequest) throws(APIError) -> [SortKey] {
        guard let text = request.parameter("orderBy"), !text.isEmpty else { return [] }
        do {
            return try OrderByParser.parse(text)
        } catch {
            throw .badRequest("invalid orderBy: \(error)")
        }
    }
}

/// `q` over a taxonomy's categories (ocm-delivery-extras.md §2.4).
enum CategoryQuery {
    /// Whether `category` satisfies `expression` (400 for a field or operator categories lack).
    static func matches(
        _ expression: QueryExpression, _ category: ExportCategory, _ tree: ChannelTaxonomy
    )
        throws(APIError) -> Bool
    {
        switch expression {
        case .condition(let c): return try condition(c, category, tree)
        case .group(let inner): return try matches(inner, category, tree)
        case .not(let inner): return try !matches(inner, category, tree)
        case .and(let operands):
            for operand in operands where try !matches(operand, category, tree) { return false }
            return true
        case .or(let operands):
            for operand in operands where try matches(operand, category, tree) { return true }
            return false
        case .verbatim: throw .badRequest("invalid q: unparsed query text")
        }
    }

    /// The fields a category search can name.
    static let fields = [
        "id", "name", "apiName", "description", "parent.id", "parent.name", "parent.apiName", "ancestors.id",
        "ancestors.name", "ancestors.apiName",
    ]

    private static func condition(
        _ c: QueryCondition, _ category: ExportCategory, _ tree: ChannelTaxonomy
    )
        throws(APIError) -> Bool
    {
        guard let field = fields.first(where: { $0.lowercased() == c.field.lowercased() }) else {
            throw .badRequest(
                "invalid q: categories cannot be searched by '\(c.field)'; use \(fields.joined(separator: ", "))")
        }
        let parts = field.split(separator: ".").map(String.init)
        let subjects: [ExportCategory]
        switch parts[0] {
        case "parent": subjects = category.parentId.flatMap { tree.category(id: $0) }.map { [$0] } ?? []
        case "ancestors": subjects = Array(tree.nodes(of: category.id).dropLast())
        default: subjects = [category]
        }
        let key = parts.last!
        let values: [String] = subjects.map { subject in
            switch key {
            case "id": return subject.id
            case "name": return subject.name
            case "apiName": return subject.apiName
            default: return subject.description
            }
        }
        let identifier = key == "id"
        switch c.op {
        case .equal:
            return values.contains { identifier ? $0 == c.value : $0.lowercased() == c.value.lowercased() }
        case .notEqual:
            return !values.contains { identifier ? $0 == c.value : $0.lowercased() == c.value.lowercased() }
        case .startsWith:
            return values.contains { $0.lowercased().hasPrefix(c.value.lowercased()) }
        case .contains:
            let wanted = Set(words(c.value))
            return values.contains { !wanted.isDisjoint(with: words($0)) }
        default:
            throw .badRequest("invalid q: operator \(c.op.rawValue) cannot be used on categories (eq, ne, co, sw)")
        }
    }

    /// Lower-case words: letters and digits, everything else separates.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
}
