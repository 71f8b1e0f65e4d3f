/// A JSON request to the delivery API, as a value: building one never touches the network.
import OCEQCore

public protocol DeliveryRequest: Sendable {
    /// The decoded response.
    associatedtype Response: Sendable

    /// The path and query items, or `invalidRequest` for an empty id, a bad limit, ...
    func endpoint() throws(DeliveryError) -> Endpoint

    /// Decodes a parsed response body.
    func decode(_ json: JSON) throws(ShapeError) -> Response
}

/// A list request whose response is a `Page`, which `DeliveryClient.pages(_:)` can walk.
public protocol PagedRequest: DeliveryRequest where Response == Page<Element> {
    associatedtype Element: Sendable

    /// The requested offset (0 by default).
    var requestedOffset: Int { get }
    /// The requested page size (100 by default).
    var requestedLimit: Int { get }
    /// The same request for another page.
    func page(offset: Int, limit: Int) -> Self
}

/// A binary download request (native file, rendition, thumbnail).
public protocol DownloadRequest: Sendable {
    /// The path and query items.
    func endpoint() throws(DeliveryError) -> Endpoint
}

/// A request whose parameters are set by chained builder methods.
public protocol ParameterizedRequest: Sendable {
    var parameters: RequestParameters { get set }
}

extension ParameterizedRequest {
    func setting(_ name: String, _ value: String?) -> Self {
        var copy = self
        copy.parameters[name] = value
        return copy
    }

    /// Uses this channel token instead of the client's.
    public func channelToken(_ token: String) -> Self {
        var copy = self
        copy.parameters.channelToken = Secret(token)
        return copy
    }

    /// Uses another API version (v1.1 by default).
    public func version(_ version: APIVersion) -> Self {
        var copy = self
        copy.parameters.version = version
        return copy
    }

    /// `links=` rel names joined by commas (`self`, `canonical`, `describedby`, `first`, `next`, ...).
    public func links(_ rels: String...) -> Self {
        setting("links", rels.isEmpty ? nil : rels.joined(separator: ","))
    }

    /// `expand=all`, none, or names.
    public func expand(_ expand: ExpandParameter) -> Self {
        setting("expand", expand.rendered)
    }

    /// `expand=` the given names (`fields.author`, ...), or `all`.
    public func expand(_ names: String...) -> Self {
        setting("expand", ExpandParameter.names(names).rendered)
    }

    /// The raw parameters, for inspection.
    public var parameterValues: [String: String] { parameters.values }
}

/// Builder methods shared by list requests.
public protocol ListRequestBuilding: ParameterizedRequest {}

extension ListRequestBuilding {
    /// `limit` (0...500; 100 by default).
    public func limit(_ limit: Int) -> Self { setting("limit", String(limit)) }

    /// `offset` (0 by default).
    public func starting(at offset: Int) -> Self { setting("offset", String(offset)) }

    /// `totalResults` (true by default, as the SDK sends it).
    public func totalResults(_ include: Bool) -> Self { setting("totalResults", include ? "true" : "false") }

    /// `orderBy`: keys joined by `;` (`name:asc;fields.foo:desc`).
    public func order(_ keys: SortKey...) -> Self { order(keys) }

    /// `orderBy` from an array of keys; an empty array removes it.
    public func order(_ keys: [SortKey]) -> Self {
        setting("orderBy", keys.isEmpty ? nil : keys.map(\.description).joined(separator: ";"))
    }

    public var requestedOffset: Int { parameters["offset"].flatMap { Int($0) } ?? 0 }
    public var requestedLimit: Int { parameters["limit"].flatMap { Int($0) } ?? DeliveryAPI.defaultLimit }

    public func page(offset: Int, limit: Int) -> Self { starting(at: offset).limit(limit) }

    static func listDefaults() -> RequestParameters {
        var parameters = RequestParameters()
        parameters["offset"] = "0"
        parameters["limit"] = String(DeliveryAPI.defaultLimit)
        parameters["totalResults"] = "true"
        return parameters
    }
}

func requireNonEmpty(_ value: String, _ message: String) throws(DeliveryError) {
    if value.isEmpty { throw .invalidRequest(message) }
}
