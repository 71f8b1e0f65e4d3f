import OCEQCore

// The metadata catalog: what every `describedby` link points at (ocm-delivery-extras.md §3).
// Each answer is a JSON Schema (`TypeSchema`) with `self`, `canonical` and `describes` links:
// `/metadata-catalog` lists the catalogs; `items` describes an `/items` page (every type);
// `items/{id}` and `items/.by.slug/{slug}` (also `…/variations…`) the item's type; `taxonomies`,
// `taxonomies/{id}`, `…/categories` and `…/categories/{cid}` the taxonomy resources.
extension DeliveryRouter {
    func metadataCatalog(
        _ request: ServerRequest, _ rest: [String], _ context: LinkContext
    ) throws(APIError)
        -> HTTPResponse
    {
        let path = (["metadata-catalog"] + rest).map { URLEncoding.component($0) }.joined(separator: "/")
        let described = rest.map { URLEncoding.component($0) }.joined(separator: "/")
        let links = [
            link(context, path, rel: "self", mediaType: "application/schema+json"),
            link(context, path, rel: "canonical", mediaType: "application/schema+json"),
        ]
        let id = "\(context.apiRoot)/\(path)"
        guard let resource = rest.first else { return json(catalogRoot(context, links), request) }
        let describes = links + [link(context, described, rel: "describes")]
        switch resource {
        case "items":
            if rest.count == 1 {
                return json(TypeSchema.collection(types: content.contentTypes, id: id, links: describes), request)
            }
            let item: ExportItem
            if rest[1] == ".by.slug" {
                guard rest.count >= 3,
                    let found = try lookUp(slug: rest[2])
                else {
                    throw .notFound("no item with slug '\(rest.count >= 3 ? rest[2] : "")' in this channel")
                }
                item = found
            } else {
                guard let found = try lookUp(id: rest[1]) else {
                    throw .notFound("no item \(rest[1]) in this channel")
                }
                item = found
            }
            let document = TypeSchema.document(
                typeName: item.type, definition: content.contentTypes[item.type], id: id, links: describes)
            return json(document, request)
        case "taxonomies":
            guard rest.count > 1 else {
                return json(TypeSchema.taxonomy(list: true, id: id, links: describes), request)
            }
            guard content.taxonomies.contains(where: { $0["id"]?.stringValue == rest[1] }) else {
                throw .notFound("no taxonomy \(rest[1]) in this channel")
            }
            switch rest.count {
            case 2: return json(TypeSchema.taxonomy(list: false, id: id, links: describes), request)
            case 3 where rest[2] == "categories":
                return json(TypeSchema.category(list: true, id: id, links: describes), request)
            case 4 where rest[2] == "categories":
                return json(TypeSchema.category(list: false, id: id, links: describes), request)
            default: throw .notFound("no metadata for '\(rest.joined(separator: "/"))'")
            }
        default:
            throw .notFound("no metadata catalog '\(resource)'; there are items and taxonomies")
        }
    }

    /// `/metadata-catalog`: the catalogs, each with its `canonical` and `describes` links.
    private func catalogRoot(_ context: LinkContext, _ links: [JSON]) -> JSON {
        let entries: [JSON] = ["items", "taxonomies"].map { name in
            [
                "name": .string(name),
                "links": [
                    link(context, "metadata-catalog/\(name)", rel: "canonical", mediaType: "application/schema+json"),
                    link(context, name, rel: "describes"),
                ],
            ]
        }
        return [
            "hasMore": false, "offset": 0, "count": .int(entries.count), "limit": .int(entries.count),
            "items": .array(entries), "links": .array(links),
        ]
    }
}
