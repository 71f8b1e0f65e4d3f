import OCEQCore

// The API root and version list, `/items/suggest`, and the resources an export cannot serve.
extension DeliveryRouter {
    /// `GET /content/published/api/v1.1`: the API description as OCM answers it (recorded in
    /// MiscTests.testGetApiInfo.json): version, lifecycle, the catalog link, self/canonical/describedby.
    func apiInfo(_ context: LinkContext) -> JSON {
        [
            "version": "v1.1", "lifecycle": "active", "isLatest": true,
            "catalog": ["links": [rootLink(context, "/v1.1/metadata-catalog", rel: "canonical")]],
            "links": [
                rootLink(context, "/v1.1", rel: "self"), rootLink(context, "/v1.1", rel: "canonical"),
                rootLink(context, "/v1.1/metadata-catalog", rel: "describedby", mediaType: "application/schema+json"),
            ],
        ]
    }

    /// `GET /content/published/api`: the versions served, each as its API description; OCM's
    /// answer was never recorded, so this is the list envelope around `apiInfo`.
    func apiVersions(_ context: LinkContext) -> JSON {
        var info = apiInfo(context)
        info["links"] = [rootLink(context, "/v1.1", rel: "canonical")]
        return [
            "hasMore": false, "offset": 0, "count": 1, "limit": 1, "items": [info],
            "links": [rootLink(context, "", rel: "self"), rootLink(context, "", rel: "canonical")],
        ]
    }

    /// A link under `/content/published/api` (the root resources sit above `link`'s prefix).
    func rootLink(
        _ context: LinkContext, _ path: String, rel: String, mediaType: String = "application/json"
    )
        -> JSON
    {
        [
            "href": .string(
                "\(context.baseURL)/content/published/api\(path)?channelToken=\(URLEncoding.component(context.channelToken))"
            ),
            "rel": .string(rel), "method": "GET", "mediaType": .string(mediaType),
        ]
    }

    /// 404 for resources OCM computes outside the content: recommendations (the personalization
    /// service) and layouts.
    func unserved(_ resource: String) -> APIError {
        let what =
            resource == "personalization"
            ? "recommendations are computed by OCM's personalization service from visitor data"
            : "layouts belong to OCM sites, not to the content delivery API"
        return .notFound("\(what); a content export does not hold them, so oceq serve has no '\(resource)' resource")
    }

    /// `GET /items/suggest?kw=...&limit=N`: words of the channel's full-text index that complete
    /// the last word of `kw` (the earlier words are kept), alphabetically, at most `limit` (10).
    /// OCM's body was never recorded: this is the list envelope with `{"value": ...}` entries.
    func suggest(_ request: ServerRequest, _ context: LinkContext) throws(APIError) -> HTTPResponse {
        let keyword = request.parameter("kw") ?? ""
        guard keyword.utf8.count <= configuration.maximumQueryLength else {
            throw .badRequest("kw is longer than \(configuration.maximumQueryLength) bytes")
        }
        let limit = try integer(request, "limit", default: 10)
        guard limit <= configuration.maximumLimit else {
            throw .badRequest("limit must be at most \(configuration.maximumLimit), got \(limit)")
        }
        var words = TextFolding.words(keyword)
        let endsWord = keyword.last.map { !$0.isLetter && !$0.isNumber } ?? true
        let stem = endsWord ? "" : (words.popLast() ?? "")
        let completions: [String]
        do {
            completions = stem.isEmpty ? [] : try index.completions(of: stem, limit: limit)
        } catch {
            throw APIError(status: 500, detail: "the suggestion lookup failed: \(error)")
        }
        let lead = words.joined(separator: " ")
        let entries: [JSON] = completions.map { word in
            ["value": .string(lead.isEmpty ? word : lead + " " + word)]
        }
        let envelope: JSON = [
            "hasMore": false, "offset": 0, "count": .int(entries.count), "limit": .int(limit),
            "items": .array(entries),
            "links": .array(
                filterLinkList(
                    [
                        link(context, "items/suggest", rel: "self", query: request.query.map { ($0.name, $0.value) }),
                        link(
                            context, "items/suggest", rel: "canonical", query: request.query.map { ($0.name, $0.value) }
                        ),
                    ], request)),
        ]
        return json(envelope, request, emptyingLinks: true)
    }
}
