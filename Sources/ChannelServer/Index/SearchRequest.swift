import OCEQCore

/// One `GET /items` search, already parsed.
public struct SearchRequest: Sendable {
    /// The parsed `q`, or nil for all items.
    public var query: QueryExpression?
    /// The `default` full-text parameter: any of its words in name, description or a user text
    /// field. Combined with `query` by AND. Nil or blank: no filter.
    public var defaultText: String?
    /// Sort keys; unknown or unsortable fields are ignored. Ties keep the export order.
    public var orderBy: [SortKey]
    /// Page size (negative counts as 0).
    public var limit: Int
    /// Index of the first match returned (negative counts as 0).
    public var offset: Int
    /// Whether `total` must be exact (`totalResults=true`).
    public var countTotal: Bool

    public init(
        query: QueryExpression? = nil, defaultText: String? = nil, orderBy: [SortKey] = [], limit: Int = 100,
        offset: Int = 0, countTotal: Bool = false
    ) {
        self.query = query
        self.defaultText = defaultText
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
        self.countTotal = countTotal
    }

    /// ANDs `expression` onto the query (a search parameter outside `q`, such as the JS SDK's
    /// `field:type:equals`); the query's own text stays one operand, grouped as written.
    public mutating func require(_ expression: QueryExpression) {
        guard let query else {
            self.query = expression
            return
        }
        switch query {
        case .group, .condition: self.query = .and([query, expression])
        default: self.query = .and([.group(query), expression])
        }
    }
}

/// One page of matches.
public struct SearchResult: Sendable, Equatable {
    /// Indices into the items array given to `ChannelIndex`, in result order.
    public var ordinals: [Int]
    /// The number of all matches; exact when `countTotal` was set, otherwise -1 unless it was
    /// known anyway.
    public var total: Int
    /// True when matches follow this page (always exact).
    public var hasMore: Bool

    public init(ordinals: [Int], total: Int, hasMore: Bool) {
        self.ordinals = ordinals
        self.total = total
        self.hasMore = hasMore
    }
}
