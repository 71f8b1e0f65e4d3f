// A select statement compiled to DeliveryKit's builder values: the filter is core's
// `QueryExpression`, written through DeliveryKit's `QueryBuilder` in one of two forms:
//
// - `.explicit` (the default, what issue 5 asks for): the whole expression and every group in
//   parentheses, keywords in upper case as in Oracle's documentation:
//   `(type eq "A" AND (fields.x eq "1" OR fields.x eq "2"))`, `(name eq "B")`,
//   `(NOT (name eq "B"))`.
// - `.sdk`: what Oracle's Swift SDK sends for the same query built with `QueryBuilder` (lower-case
//   `and`/`or`, the outermost group bare, inner groups parenthesised), which is what the blog
//   sample's URLs contain: `type eq "A" and fields.topic eq "B"`.
//
// Precedence never matters in either form: every group is parenthesised.

import DeliveryKit
import OCEQCore

/// A select statement compiled to the parameters of `GET /items`.
///
/// `list` sends what was written (no `limit` means the client's default page); `first` sends
/// `limit=1`; `count` sends `limit=1` and asks for `totalResults`.
package struct CompiledQuery: Sendable, Hashable {
    /// Which command it came from.
    package enum Kind: String, Sendable, Hashable {
        case list, count, first
    }

    /// Which command it came from.
    package var kind: Kind
    /// The search condition (and/or flattened, no groups), or nil for none.
    package var filter: QueryExpression?
    /// The `default` (full-text) parameter, from `search`.
    package var defaultText: String?
    /// The sort keys, API field names and explicit directions.
    package var orderKeys: [SortKey]
    /// The `limit` parameter.
    package var limit: Int?
    /// The `offset` parameter.
    package var offset: Int?
    /// The `fields` parameter: `all` or names joined by `,`.
    package var fields: String?
    /// The `expand` parameter: `all` or names joined by `,`.
    package var expand: String?
    /// Fields used that are not standard fields (as written, in order, once each), for `explain`:
    /// user fields are per type, so the compiler cannot check them.
    package var userFields: [String]
    /// Names compared with reference fields and the ids they were resolved to, for `explain`.
    package var resolvedNames: [ResolvedName] = []
    /// List fields compared with `=` or `!=`, sent as membership (`co`, `NOT co`), for `explain`.
    package var listMemberships: [String] = []
    /// Dates in conditions written without a UTC offset (as sent), for `explain`: the server reads them
    /// in a zone of its own.
    package var datesWithoutOffset: [String] = []
    /// True when the statement was checked against the channel's catalog.
    package var checked = false

    /// A compiled query; every parameter optional.
    package init(
        kind: Kind, filter: QueryExpression? = nil, defaultText: String? = nil, orderKeys: [SortKey] = [],
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
    package var orderBy: String? {
        orderKeys.isEmpty ? nil : orderKeys.map(\.description).joined(separator: ";")
    }

    /// The filter as DeliveryKit's builder writes it in `style`, or nil for no filter.
    package func queryBuilder(style: QueryStyle = .explicit) -> QueryBuilder? {
        filter.map { QueryBuilder(expression: $0.parenthesized(whole: style == .explicit), style: style) }
    }

    /// The `q` parameter in the explicit style: `(type eq "A" AND fields.topic eq "B")`.
    package var q: String? { q(style: .explicit) }

    /// The `q` parameter in `style`.
    package func q(style: QueryStyle) -> String? { queryBuilder(style: style)?.buildQueryString() }

    /// True for `count`: the request asks for `totalResults`.
    package var totalResults: Bool { kind == .count }

    /// The parameters this query sets, by name, `q` in `style` (the client adds its own defaults).
    package func parameters(style: QueryStyle = .explicit) -> [(name: String, value: String)] {
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
