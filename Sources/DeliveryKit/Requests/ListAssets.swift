/// `GET /items`: a search over the channel's items, one page per request.
import OCEQCore

public struct ListAssets: PagedRequest, ListRequestBuilding {
    public typealias Element = Asset

    /// The parameters set so far (`offset=0`, `limit=100`, `totalResults=true` to start).
    public var parameters: RequestParameters = ListAssets.listDefaults()
    /// The `q` text from `query(...)`, before `language(...)` is added.
    public private(set) var queryText: String?
    /// The language added to `q` as `language eq "…"`.
    public private(set) var languageTag: String?

    /// The same as `DeliveryAPI.listAssets()`.
    public init() {}

    /// `q` from a builder.
    public func query(_ builder: QueryBuilder) -> ListAssets { query(rawText: builder.buildQueryString()) }

    /// `q` from a single node.
    public func query(_ node: QueryNode) -> ListAssets { query(rawText: node.buildQueryString()) }

    /// `q` as raw text, unchanged; an empty text removes it.
    public func query(rawText: String) -> ListAssets {
        var copy = self
        copy.queryText = rawText.isEmpty ? nil : rawText
        return copy
    }

    /// Restricts results to one language: `language eq "<tag>"` is ANDed to `q` (the API has no
    /// language parameter on `/items`).
    public func language(_ tag: String?) -> ListAssets {
        var copy = self
        copy.languageTag = tag.flatMap { $0.isEmpty ? nil : $0 }
        return copy
    }

    /// `default`: full-text values joined by comma and space, as the SDK sends them.
    public func defaultQuery(_ values: String...) -> ListAssets { defaultQuery(values) }

    /// `default` from an array; empty removes it.
    public func defaultQuery(_ values: [String]) -> ListAssets {
        setting("default", values.isEmpty ? nil : values.joined(separator: ", "))
    }

    /// `fields=all`, none (summaries), or names.
    public func fields(_ fields: FieldsParameter) -> ListAssets { setting("fields", fields.rendered) }

    /// `fields=` the given names joined by commas (`all` wins).
    public func fields(_ names: String...) -> ListAssets { fields(.names(names)) }

    /// The `q` text sent: the query, with the language condition ANDed.
    public func renderedQuery() throws(DeliveryError) -> String? {
        guard let languageTag else { return queryText }
        guard !languageTag.contains("\"") else {
            throw .invalidRequest("the language \(languageTag) contains a double quote")
        }
        let condition = "language eq \"\(languageTag)\""
        guard let queryText else { return condition }
        return "(\(queryText)) and \(condition)"
    }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        var parameters = self.parameters
        parameters["q"] = try renderedQuery()
        return try parameters.endpoint(["items"])
    }

    public func decode(_ json: JSON) throws(ShapeError) -> Page<Asset> {
        try Page(json: json) { (item, path) throws(ShapeError) in try Asset(json: item, path: path) }
    }
}

/// `GET /items/{id}`, `/items/.by.slug/{slug}` or an item variation: one item.
public struct ReadAsset: DeliveryRequest, ParameterizedRequest {
    /// What the request reads.
    public indirect enum Target: Sendable, Hashable {
        case id(String)
        case slug(String)
        case variation(Target, type: String, value: String)
    }

    /// Which item is read.
    public let target: Target
    public var parameters: RequestParameters

    init(target: Target) {
        self.target = target
        parameters = RequestParameters()
        parameters["expand"] = "all"
    }

    static func path(_ target: Target) throws(DeliveryError) -> [String] {
        switch target {
        case .id(let id):
            try requireNonEmpty(id, "Asset ID cannot be empty.")
            return ["items", id]
        case .slug(let slug):
            try requireNonEmpty(slug, "Slug cannot be empty.")
            return ["items", ".by.slug", slug]
        case .variation(let base, let type, let value):
            try requireNonEmpty(type, "Variation type cannot be empty.")
            try requireNonEmpty(value, "Variation value cannot be empty.")
            return try path(base) + ["variations", type, value]
        }
    }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try parameters.endpoint(try ReadAsset.path(target))
    }

    public func decode(_ json: JSON) throws(ShapeError) -> Asset { try Asset(json: json) }
}

/// `GET /items/{id}/variations`: every variation set of an item.
public struct ListVariations: DeliveryRequest, ParameterizedRequest {
    public let id: String
    public var parameters = RequestParameters()

    init(id: String) { self.id = id }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(id, "Asset ID cannot be empty.")
        return try parameters.endpoint(["items", id, "variations"])
    }

    public func decode(_ json: JSON) throws(ShapeError) -> [VariationSet] {
        guard case .object(let object) = json else { throw ShapeError(path: "", expected: "an object", found: json) }
        guard case .array(let sets)? = object["data"] else {
            throw ShapeError(path: "data", expected: "an array of variation sets", found: object["data"])
        }
        var result: [VariationSet] = []
        for (index, set) in sets.enumerated() { result.append(try VariationSet(json: set, path: "data[\(index)]")) }
        return result
    }
}

/// `GET /items/{id}/variations/{type}`: one variation set.
public struct ListVariationsOfType: DeliveryRequest, ParameterizedRequest {
    public let id: String
    public let type: String
    public var parameters = RequestParameters()

    init(id: String, type: String) {
        self.id = id
        self.type = type
    }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(id, "Asset ID cannot be empty.")
        try requireNonEmpty(type, "Variation type cannot be empty.")
        return try parameters.endpoint(["items", id, "variations", type])
    }

    public func decode(_ json: JSON) throws(ShapeError) -> VariationSet { try VariationSet(json: json, path: "") }
}
