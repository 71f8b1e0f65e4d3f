/// A select statement compiled to the parameters of `GET /items`.
///
/// `list` sends what was written (no `limit` means the client's default page); `first` sends
/// `limit=1`; `count` sends `limit=1` and asks for `totalResults`.
public struct CompiledQuery: Sendable, Hashable {
    /// Which command it came from.
    public enum Kind: String, Sendable, Hashable {
        case list, count, first
    }

    /// Which command it came from.
    public var kind: Kind
    /// The search condition, or nil for none.
    public var filter: CompiledCondition?
    /// The `default` (full-text) parameter, from `search`.
    public var defaultText: String?
    /// The sort keys, API field names and explicit directions.
    public var orderKeys: [CompiledOrderKey]
    /// The `limit` parameter.
    public var limit: Int?
    /// The `offset` parameter.
    public var offset: Int?
    /// The `fields` parameter: `all` or names joined by `,`.
    public var fields: String?
    /// The `expand` parameter: `all` or names joined by `,`.
    public var expand: String?
    /// Fields used that are not standard fields (as written, in order, once each), for `explain`:
    /// user fields are per type, so the compiler cannot check them.
    public var userFields: [String]

    /// A compiled query; every parameter optional.
    public init(
        kind: Kind, filter: CompiledCondition? = nil, defaultText: String? = nil, orderKeys: [CompiledOrderKey] = [],
        limit: Int? = nil, offset: Int? = nil, fields: String? = nil, expand: String? = nil, userFields: [String] = []
    ) {
        self.kind = kind
        self.filter = filter
        self.defaultText = defaultText
        self.orderKeys = orderKeys
        self.limit = limit
        self.offset = offset
        self.fields = fields
        self.expand = expand
        self.userFields = userFields
    }

    /// The `orderBy` parameter: `field:asc|desc` keys joined by `;`, or nil for no order.
    public var orderBy: String? {
        orderKeys.isEmpty ? nil : orderKeys.map(\.description).joined(separator: ";")
    }

    /// The `q` parameter in the explicit style: `(type eq "A" AND fields.topic eq "B")`.
    public var q: String? { filter?.text(style: .explicit) }

    /// The `q` parameter in `style`.
    public func q(style: QueryStyle) -> String? { filter?.text(style: style) }

    /// True for `count`: the request asks for `totalResults`.
    public var totalResults: Bool { kind == .count }

    /// The parameters this query sets, by name, `q` in `style` (the client adds its own defaults).
    public func parameters(style: QueryStyle = .explicit) -> [(name: String, value: String)] {
        var out: [(String, String)] = []
        if let defaultText { out.append(("default", defaultText)) }
        if let expand { out.append(("expand", expand)) }
        if let fields { out.append(("fields", fields)) }
        if let limit { out.append(("limit", String(limit))) }
        if let offset { out.append(("offset", String(offset))) }
        if let orderBy { out.append(("orderBy", orderBy)) }
        if let q = q(style: style) { out.append(("q", q)) }
        if totalResults { out.append(("totalResults", "true")) }
        return out
    }
}

/// One compiled sort key: the API's field name and a direction (`fields.published_date:desc`).
public struct CompiledOrderKey: Sendable, Hashable, CustomStringConvertible {
    /// The field as the API names it.
    public var field: String
    /// The direction; ascending when none was written.
    public var direction: SortDirection

    /// A key on `field`.
    public init(field: String, direction: SortDirection = .asc) {
        self.field = field
        self.direction = direction
    }

    public var description: String { field + ":" + direction.rawValue }
}
