import OCEQCore

// E8–E11: taxonomies and categories. Exports carry them only in a `Taxonomies/` folder whose
// format no sample shows; what the reader found is served, otherwise the lists are empty.
extension DeliveryRouter {
    func taxonomies(_ request: ServerRequest, _ rest: [String], _ context: LinkContext) throws(APIError) -> HTTPResponse
    {
        let all = content.taxonomies.compactMap { taxonomy -> (id: String, json: JSON)? in
            guard let id = taxonomy["id"]?.stringValue else { return nil }
            return (id, taxonomy)
        }
        if rest.isEmpty {
            let limit = try integer(request, "limit", default: 100)
            let offset = try integer(request, "offset", default: 0)
            guard limit <= configuration.maximumLimit else {
                throw .badRequest("limit must be at most \(configuration.maximumLimit), got \(limit)")
            }
            let page = all.dropFirst(offset).prefix(limit).map { taxonomy(summary: $0.json, $0.id, context) }
            var envelope: [String: JSON] = [
                "hasMore": .bool(offset + page.count < all.count), "offset": .int(offset), "count": .int(page.count),
                "limit": .int(limit), "items": .array(Array(page)),
            ]
            if request.parameter("totalResults")?.lowercased() == "true" { envelope["totalResults"] = .int(all.count) }
            envelope["links"] = .array(
                envelopeLinks(
                    request, context, resource: "taxonomies", offset: offset, limit: limit, count: page.count,
                    total: all.count))
            return json(.object(envelope), request)
        }
        guard let found = all.first(where: { $0.id == rest[0] }) else {
            throw .notFound("no taxonomy \(rest[0]) in this channel")
        }
        if rest.count == 1 { return json(taxonomy(summary: found.json, found.id, context), request) }
        guard rest[1] == "categories", rest.count <= 3 else {
            throw .notFound("no resource '\(rest.dropFirst().joined(separator: "/"))' under a taxonomy")
        }
        let categories = found.json["categories"]?.arrayValue ?? []
        if rest.count == 3 {
            guard let category = categories.first(where: { $0["id"]?.stringValue == rest[2] }) else {
                throw .notFound("no category \(rest[2]) in taxonomy \(found.id)")
            }
            return json(category, request)
        }
        let limit = try integer(request, "limit", default: 100)
        let offset = try integer(request, "offset", default: 0)
        let page = Array(categories.dropFirst(offset).prefix(limit))
        var envelope: [String: JSON] = [
            "hasMore": .bool(offset + page.count < categories.count), "offset": .int(offset), "count": .int(page.count),
            "limit": .int(limit), "items": .array(page),
        ]
        if request.parameter("totalResults")?.lowercased() == "true" {
            envelope["totalResults"] = .int(categories.count)
        }
        envelope["links"] = .array(
            envelopeLinks(
                request, context, resource: "taxonomies/\(URLEncoding.component(found.id))/categories", offset: offset,
                limit: limit, count: page.count, total: categories.count))
        return json(.object(envelope), request)
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
        members["links"] = [link(context, "taxonomies/\(URLEncoding.component(id))", rel: "self")]
        return .object(members)
    }
}
