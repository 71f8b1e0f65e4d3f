// The GraphQL endpoint (ocm-delivery-extras.md §1.1): `POST /content/published/api/v1.1/graphql`,
// also with `?cb=…` and as the JS SDK's broken `/graphqlcb=…` path; the explorer page at
// `…/graphql/explorer` and `/graphql/explorer`. The channel token may come as each root field's
// `channelToken` argument, or as the query parameter or header (a wrong one there is 403, as for
// REST); a secure channel wants its bearer first (401). A body that is not a GraphQL request is
// 400; everything else answers 200 with GraphQL's `data`/`errors`.

import OCEQCore

extension DeliveryRouter {
    /// The answer when `request` is for the GraphQL endpoint or its explorer, else nil.
    func graphQL(_ request: ServerRequest) -> HTTPResponse? {
        let segments = request.pathSegments
        if segments == ["graphql", "explorer"] || segments == DeliveryRouter.prefix + ["graphql", "explorer"] {
            return GraphQLExplorerPage.response(request)
        }
        guard segments.count == DeliveryRouter.prefix.count + 1, segments.starts(with: DeliveryRouter.prefix),
            let last = segments.last, last == "graphql" || last.hasPrefix("graphqlcb=")
        else { return nil }
        do {
            return try graphQLEndpoint(request)
        } catch {
            return error.response
        }
    }

    private func graphQLEndpoint(_ request: ServerRequest) throws(APIError) -> HTTPResponse {
        guard request.method == "POST" else {
            throw APIError(
                status: 405, detail: "GraphQL queries are sent with POST", headers: ["Allow": "POST, OPTIONS"])
        }
        let offered = request.parameter("channelToken") ?? request.header("channelToken")
        if let offered, !constantTimeEqual(offered, configuration.channelToken.revealedForRequest) {
            throw .channelToken
        }
        try authorizeBearer(request)
        // The export cannot change under us: an answer without errors is kept for the same body,
        // target, host and token presence (a request without the token may be answered differently).
        let cacheKey =
            cache != nil && request.body.count <= 16 * 1024
            ? "POST " + (offered == nil ? "- " : "T ") + (request.header("Host") ?? "") + " " + request.target + " "
                + String(decoding: request.body, as: UTF8.self) : nil
        if let cache, let cacheKey, let hit = cache.get(cacheKey) {
            return Self.graphQLAnswer(hit.bytes)
        }
        let body: JSON
        do {
            body = try JSON.parse(request.body, maximumDepth: 64)
        } catch {
            return Self.graphQLBadRequest("the body is not JSON: \(error)")
        }
        guard case .object(let members) = body else {
            return Self.graphQLBadRequest("the body must be a JSON object with \"query\"")
        }
        guard let query = (members["query"] ?? members["q"])?.stringValue else {
            return Self.graphQLBadRequest("the body has no \"query\" string")
        }
        let variables: [String: JSON]
        switch members["variables"] {
        case nil, .null?: variables = [:]
        case .object(let given)?: variables = given
        default: return Self.graphQLBadRequest("\"variables\" must be an object")
        }
        var operationName: String?
        switch members["operationName"] {
        case nil, .null?: operationName = nil
        case .string(let name)?: operationName = name
        default: return Self.graphQLBadRequest("\"operationName\" must be a string")
        }
        let context = linkContext(for: request)
        let shaper = self.shaper
        let content = self.content
        let index = self.index
        let token = configuration.channelToken
        let requestHasToken = offered != nil
        let source = GraphQLDataSource(
            itemById: { id throws(GraphQLError) in
                try Self.graphQLStored { () throws(IndexStorageError) in
                    try shaper.item(id: id).map { (item) throws(IndexStorageError) in
                        try shaper.full(item, context: context, expand: .none)
                    }
                }
            },
            itemBySlug: { slug throws(GraphQLError) in
                try Self.graphQLStored { () throws(IndexStorageError) in
                    try shaper.item(slug: slug).map { (item) throws(IndexStorageError) in
                        try shaper.full(item, context: context, expand: .none)
                    }
                }
            },
            search: { search throws(GraphQLError) in
                let result: SearchResult
                do {
                    result = try index.search(search)
                } catch {
                    throw GraphQLError("The search failed: \(error)")
                }
                let items = try Self.graphQLStored { () throws(IndexStorageError) in
                    try content.items.items(at: result.ordinals).map { (item) throws(IndexStorageError) in
                        try shaper.full(item, context: context, expand: .none)
                    }
                }
                return (items, result.total, result.hasMore)
            }, maximumLimit: configuration.maximumLimit,
            authorized: { argument in
                guard let argument else { return requestHasToken }
                return constantTimeEqual(argument, token.revealedForRequest)
            })
        let bytes = GraphQLEngine.run(
            schema: graphQLSchema, query: query, variables: variables, operationName: operationName, source: source,
            limits: configuration.graphQL)
        if let cache, let cacheKey, !bytes.starts(with: Array("{\"errors\"".utf8)) {
            cache.put(cacheKey, ResponseCache.Entry(bytes: bytes, tag: EntityTag.of(bytes)))
        }
        return Self.graphQLAnswer(bytes)
    }

    /// Runs a read of the channel's index for a resolver; a storage failure becomes a GraphQL error
    /// that says so, never a null that reads as "no such item".
    static func graphQLStored<T>(_ body: () throws(IndexStorageError) -> T) throws(GraphQLError) -> T {
        do {
            return try body()
        } catch {
            throw GraphQLError("The channel's index could not be read: \(error)")
        }
    }

    /// A 200 GraphQL answer.
    static func graphQLAnswer(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: .bytes(bytes))
    }

    /// 400 with a GraphQL-shaped body.
    static func graphQLBadRequest(_ message: String) -> HTTPResponse {
        let error = GraphQLError("Bad GraphQL request: " + message)
        return HTTPResponse(
            status: 400, headers: [("Content-Type", "application/json")],
            body: .bytes(JSONWriter().bytes(.object(["errors": .array([error.json])]))))
    }
}
