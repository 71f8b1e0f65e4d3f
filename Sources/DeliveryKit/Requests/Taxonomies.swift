/// `GET /taxonomies`: the channel's published taxonomies.
import OCEQCore

public struct ListTaxonomies: PagedRequest, ListRequestBuilding {
    public typealias Element = Taxonomy

    public var parameters: RequestParameters = ListTaxonomies.listDefaults()

    init() {}

    public func endpoint() throws(DeliveryError) -> Endpoint { try parameters.endpoint(["taxonomies"]) }

    public func decode(_ json: JSON) throws(ShapeError) -> Page<Taxonomy> {
        try Page(json: json) { (item, path) throws(ShapeError) in try Taxonomy(json: item, path: path) }
    }
}

/// `GET /taxonomies/{id}`
public struct ReadTaxonomy: DeliveryRequest, ParameterizedRequest {
    public let id: String
    public var parameters = RequestParameters()

    init(id: String) { self.id = id }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(id, "Taxonomy ID cannot be empty.")
        return try parameters.endpoint(["taxonomies", id])
    }

    public func decode(_ json: JSON) throws(ShapeError) -> Taxonomy { try Taxonomy(json: json, path: "") }
}

/// `GET /taxonomies/{id}/categories`: a search over one taxonomy's categories.
public struct ListTaxonomyCategories: PagedRequest, ListRequestBuilding {
    public typealias Element = TaxonomyCategory

    public let taxonomyId: String
    public var parameters: RequestParameters = ListTaxonomyCategories.listDefaults()

    init(taxonomyId: String) { self.taxonomyId = taxonomyId }

    /// `q` (categories accept `id`, `name`, `parent.id`, `ancestors.id`, `ancestors.name`, `ancestors.apiName`).
    public func query(_ builder: QueryBuilder) -> Self { setting("q", builder.buildQueryString()) }

    /// `q` as raw text.
    public func query(rawText: String) -> Self { setting("q", rawText.isEmpty ? nil : rawText) }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(taxonomyId, "Taxonomy ID cannot be empty.")
        return try parameters.endpoint(["taxonomies", taxonomyId, "categories"])
    }

    public func decode(_ json: JSON) throws(ShapeError) -> Page<TaxonomyCategory> {
        try Page(json: json) { (item, path) throws(ShapeError) in try TaxonomyCategory(json: item, path: path) }
    }
}

/// `GET /taxonomies/{id}/categories/{categoryId}`
public struct ReadTaxonomyCategory: DeliveryRequest, ParameterizedRequest {
    public let taxonomyId: String
    public let categoryId: String
    public var parameters = RequestParameters()

    init(taxonomyId: String, categoryId: String) {
        self.taxonomyId = taxonomyId
        self.categoryId = categoryId
    }

    /// `fields=`: optional parts (`all` wins).
    public func fields(_ fields: CategoryField...) -> Self {
        let names = fields.contains(.all) ? ["all"] : fields.map(\.rawValue)
        return setting("fields", names.isEmpty ? nil : names.joined(separator: ","))
    }

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try requireNonEmpty(taxonomyId, "Taxonomy ID cannot be empty.")
        try requireNonEmpty(categoryId, "Category ID cannot be empty.")
        return try parameters.endpoint(["taxonomies", taxonomyId, "categories", categoryId])
    }

    public func decode(_ json: JSON) throws(ShapeError) -> TaxonomyCategory {
        try TaxonomyCategory(json: json, path: "")
    }
}
