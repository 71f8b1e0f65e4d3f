// Compiled statements as DeliveryKit requests. The request keeps DeliveryKit's (the SDK's)
// defaults for what the statement leaves open: `offset=0`, `limit=100`, `totalResults=true` on
// lists, `expand=all` on item reads.

import DeliveryKit
import OCEQCore

extension CompiledQuery {
    /// `GET /items` with this query's parameters, `q` written in `style`.
    ///
    /// The explicit style (the default) parenthesises everything; `.sdk` writes `q` as Oracle's SDK
    /// would for the same conditions, which is how the blog sample's URLs are reproduced exactly.
    package func request(style: QueryStyle = .explicit) -> ListAssets {
        var request = DeliveryAPI.listAssets()
        if let builder = queryBuilder(style: style) { request = request.query(builder) }
        if let defaultText { request = request.defaultQuery(defaultText) }
        if !orderKeys.isEmpty { request = request.order(orderKeys) }
        if let limit { request = request.limit(limit) }
        if let offset { request = request.starting(at: offset) }
        if let fields { request = request.fields(FieldsParameter(fields)) }
        if let expand { request = request.expand(ExpandParameter(expand)) }
        if totalResults { request = request.totalResults(true) }
        return request
    }
}

extension CompiledRead {
    /// `GET /items/{id}` or `/items/.by.slug/{slug}`, with `expand` when one was given.
    package func request() -> ReadAsset {
        var request: ReadAsset
        switch target {
        case .id(let id): request = DeliveryAPI.readAsset(id: id)
        case .slug(let slug): request = DeliveryAPI.readAsset(slug: slug)
        }
        if let expand { request = request.expand(ExpandParameter(expand)) }
        return request
    }
}
