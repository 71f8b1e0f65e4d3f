/// `GET /metadata-catalog/items`: the JSON Schema of a page of items, which describes every type of
/// the channel (`$defs/<type>` with `x-ocm-fields`, the names in `x-ocm-types`; ocm-delivery-extras.md §3).
import OCEQCore

public struct ReadItemsMetadataCatalog: DeliveryRequest, ParameterizedRequest {
    public var parameters = RequestParameters()

    init() {}

    public func endpoint() throws(DeliveryError) -> Endpoint {
        try parameters.endpoint(["metadata-catalog", "items"])
    }

    /// The schema as it came.
    public func decode(_ json: JSON) throws(ShapeError) -> JSON { json }
}

extension DeliveryAPI {
    /// `GET /metadata-catalog/items`: the types and fields of the channel, as JSON Schema.
    public static func readItemsMetadataCatalog() -> ReadItemsMetadataCatalog { ReadItemsMetadataCatalog() }
}
