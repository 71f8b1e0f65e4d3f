import OCEQCore

/// What the executor reads items through: the same lookups, search and shaping REST uses.
struct GraphQLDataSource: Sendable {
    /// An item's full Delivery JSON (as `GET /items/{id}` answers it), by id; nil when no item has
    /// it, an error when the index cannot be read.
    var itemById: @Sendable (String) throws(GraphQLError) -> JSON?
    /// The same, by slug.
    var itemBySlug: @Sendable (String) throws(GraphQLError) -> JSON?
    /// A search: the matching items' full JSON, the total and whether more follow.
    var search: @Sendable (SearchRequest) throws(GraphQLError) -> (items: [JSON], total: Int, hasMore: Bool)
    /// The largest `limit` a search takes.
    var maximumLimit: Int
    /// Whether a root field may run: the request carried the channel token, or the field's
    /// `channelToken` argument (nil when absent) is the token.
    var authorized: @Sendable (String?) -> Bool
}
