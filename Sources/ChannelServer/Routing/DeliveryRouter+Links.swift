import OCEQCore

// Links the router generates itself (envelopes, variations), and the `links` parameter filter.
extension DeliveryRouter {
    /// A link object to `path` under the API prefix, carrying the channel token.
    func link(
        _ context: LinkContext, _ path: String, rel: String, query: [(String, String)] = [],
        mediaType: String = "application/json"
    )
        -> JSON
    {
        var pairs = query
        if !pairs.contains(where: { $0.0 == "channelToken" }) { pairs.append(("channelToken", context.channelToken)) }
        let queryText = pairs.map { "\(URLEncoding.component($0.0))=\(URLEncoding.component($0.1))" }.joined(
            separator: "&")
        return [
            "href": .string("\(context.baseURL)/content/published/api/v1.1/\(path)?\(queryText)"), "rel": .string(rel),
            "method": "GET", "mediaType": .string(mediaType),
        ]
    }

    /// `self`, `canonical` and `describedby` (its metadata-catalog entry) of the resource at `path`,
    /// filtered by the `links` parameter: the links of a single taxonomy or category.
    func resourceLinks(_ request: ServerRequest, _ context: LinkContext, path: String) -> JSON {
        .array(
            filterLinkList(
                [
                    link(context, path, rel: "self"), link(context, path, rel: "canonical"),
                    link(context, "metadata-catalog/\(path)", rel: "describedby", mediaType: "application/schema+json"),
                ], request))
    }

    /// `self`, `canonical`, `describedby`, then `prev`/`next` where they exist, then `first` and `last`:
    /// the order of OCM's recorded answers (../shared/fixtures/ocm-recorded, testPaginationMiddle).
    func envelopeLinks(
        _ request: ServerRequest, _ context: LinkContext, resource: String, offset: Int, limit: Int, count: Int,
        total: Int
    ) -> [JSON] {
        let base = request.query.filter { $0.name != "offset" }.map { ($0.name, $0.value) }
        func page(_ at: Int, _ rel: String) -> JSON {
            link(context, resource, rel: rel, query: base + [("offset", String(at))])
        }
        var links = [
            page(offset, "self"), page(offset, "canonical"),
            link(context, "metadata-catalog/\(resource)", rel: "describedby", mediaType: "application/schema+json"),
        ]
        let pageSize = max(limit, 1)
        let lastOffset = total > 0 ? ((total - 1) / pageSize) * pageSize : 0
        if offset > 0 { links.append(page(max(0, offset - pageSize), "prev")) }
        if offset + count < total { links.append(page(offset + count, "next")) }
        links.append(page(0, "first"))
        links.append(page(lastOffset, "last"))
        return filterLinkList(links, request)
    }

    /// Applies the `links` parameter (a comma list of rel names) to an item's `links`.
    func filterLinks(_ value: JSON, _ request: ServerRequest) -> JSON {
        guard request.parameter("links") != nil, case .array(let links)? = value["links"] else { return value }
        var copy = value
        copy["links"] = .array(filterLinkList(links, request))
        return copy
    }

    func filterLinkList(_ links: [JSON], _ request: ServerRequest) -> [JSON] {
        guard let wanted = request.parameter("links") else { return links }
        let rels = Set(wanted.lowercased().split(separator: ",").map { String($0.trimmingSpaces()) })
        if rels.contains("all") { return links }
        return links.filter { rels.contains(($0["rel"]?.stringValue ?? "").lowercased()) }
    }

    /// Whether `links=none` asks for every `links` array anywhere in the answer to be empty, as OCM
    /// answers it (envelope, hits, reference stubs, expanded references, native and rendition
    /// formats): `json(_:_:emptyingLinks:)` then writes them as `[]`.
    func linksNone(_ request: ServerRequest) -> Bool {
        guard let wanted = request.parameter("links") else { return false }
        return wanted.trimmingSpaces().lowercased() == "none"
    }
}
