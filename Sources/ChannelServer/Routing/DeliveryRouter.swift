// DeliveryRouter: the delivery API's URL space (delivery-api.md §3) mapped onto the channel.
//
// Every request passes the same gate, in OCM's order: method (GET/HEAD), then the channel token
// (query parameter or `channelToken` header, else 403), then the bearer when the channel is
// secure (else 401). Then the path picks an endpoint; each endpoint returns a response or throws
// an `APIError`, which becomes the JSON error body. JSON answers carry an ETag and honour
// `If-None-Match`; binaries also honour `Range`/`If-Range`.
import FoundationEssentials
import OCEQCore

/// How the server answers: the channel's token, the optional bearer of a secure channel, limits.
public struct ServerConfiguration: Sendable {
    /// The token clients must send (`channelToken` query parameter or header).
    public var channelToken: Secret
    /// When set, the channel is secure: every request needs `Authorization: Bearer <bearer>`.
    public var bearer: Secret?
    /// The largest `limit` accepted (OCM documents 500); larger values get 400.
    public var maximumLimit: Int
    /// The longest `q` (or `default`) accepted, in bytes; longer ones get 400.
    public var maximumQueryLength: Int

    /// Bytes of finished JSON answers kept for repeated requests (0 turns the cache off).
    public var responseCacheBytes: Int
    /// The origins browser apps may read answers from (`--cors`); off by default.
    public var cors = CORSPolicy()
    /// Bounds on GraphQL requests.
    public var graphQL = GraphQLLimits()

    public init(
        channelToken: String, bearer: String? = nil, maximumLimit: Int = 500, maximumQueryLength: Int = 16 * 1024,
        responseCacheBytes: Int = 32 << 20
    ) {
        self.channelToken = Secret(channelToken)
        self.bearer = bearer.map { Secret($0) }
        self.maximumLimit = maximumLimit
        self.maximumQueryLength = maximumQueryLength
        self.responseCacheBytes = responseCacheBytes
    }
}

/// Answers delivery API requests from a loaded channel.
public final class DeliveryRouter: Sendable {
    /// The API's path prefix, split into segments.
    public static let prefix = ["content", "published", "api", "v1.1"]

    let content: ChannelContent
    let shaper: DeliveryShaper
    let index: ChannelIndex
    let configuration: ServerConfiguration
    /// Renders renditions of images; nil answers every rendition with 404.
    let renditions: (any RenditionSource)?
    /// Finished JSON answers; nil when `configuration.responseCacheBytes` is 0.
    let cache: ResponseCache?
    /// The open cursors of scrolled searches (`scroll=true`, `scrollId`).
    let scrolls = ScrollCursors()
    /// The GraphQL schema generated from the channel's types.
    let graphQLSchema: GraphQLSchema

    public init(
        content: ChannelContent, index: ChannelIndex, configuration: ServerConfiguration,
        renditions: (any RenditionSource)? = nil
    ) {
        self.content = content
        self.shaper = DeliveryShaper(content: content)
        self.index = index
        self.configuration = configuration
        self.renditions = renditions
        self.graphQLSchema = GraphQLSchemaBuilder.build(content.contentTypes)
        self.cache =
            configuration.responseCacheBytes > 0 ? ResponseCache(capacity: configuration.responseCacheBytes) : nil
    }

    /// Answers one request; never throws, never crashes on input.
    public func handle(_ request: ServerRequest) -> HTTPResponse {
        if let preflight = configuration.cors.preflight(request) { return preflight }
        var response = answer(request)
        configuration.cors.decorate(&response, for: request)
        return response
    }

    /// The answer before CORS headers.
    func answer(_ request: ServerRequest) -> HTTPResponse {
        if let graphQL = graphQL(request) { return graphQL }
        do {
            let rest = try gate(request)
            // JSON answers are cached whole (the export cannot change under us); binaries are
            // already served from files, and a scrolled search answers the next page each time.
            guard let cache, rest.first != "assets", request.parameter("scroll") == nil,
                request.parameter("scrollId") == nil
            else { return try route(request, rest) }
            let key = (request.header("Host") ?? "") + " " + request.target
            if let hit = cache.get(key) { return json(bytes: hit.bytes, tag: hit.tag, request) }
            let response = try route(request, rest)
            if response.status == 200, case .bytes(let bytes) = response.body, let tag = response.header("ETag") {
                cache.put(key, ResponseCache.Entry(bytes: bytes, tag: tag))
            }
            return response
        } catch {
            return error.response
        }
    }

    /// Runs a read of the channel's index; a storage failure becomes a 500 that says so
    /// (`APIError(storage:)`), never a "not found".
    func stored<T>(_ body: () throws(IndexStorageError) -> T) throws(APIError) -> T {
        do {
            return try body()
        } catch {
            throw APIError(storage: error)
        }
    }

    /// The item with this id, or nil; a storage failure is a 500.
    func lookUp(id: String) throws(APIError) -> ExportItem? {
        try stored { () throws(IndexStorageError) in try shaper.item(id: id) }
    }

    /// The item with this slug (exact, else ignoring case), or nil; a storage failure is a 500.
    func lookUp(slug: String) throws(APIError) -> ExportItem? {
        try stored { () throws(IndexStorageError) in try shaper.item(slug: slug) }
    }

    /// Method, path prefix and credentials: what every request must pass before any lookup.
    /// Returns the path below `/content/published/api/v1.1` (empty for the API root); the short
    /// rendition form `/content/assets/{slug}/...` becomes `assets/.by.slug/{slug}/...` and the
    /// version list `/content/published/api` becomes `..`.
    func gate(_ request: ServerRequest) throws(APIError) -> [String] {
        guard request.method == "GET" || request.method == "HEAD" else {
            throw APIError(status: 405, detail: "only GET and HEAD are supported", headers: ["Allow": "GET, HEAD"])
        }
        let segments = request.pathSegments
        let rest: [String]
        if segments.starts(with: DeliveryRouter.prefix) {
            rest = Array(segments.dropFirst(DeliveryRouter.prefix.count))
        } else if segments.elementsEqual(DeliveryRouter.prefix.dropLast()) {
            rest = [".."]
        } else if segments.count > 2, segments.starts(with: ["content", "assets"]) {
            rest = ["assets", ".by.slug"] + segments.dropFirst(2)
        } else {
            throw .notFound("no resource at this path; the delivery API is under /content/published/api/v1.1")
        }
        try authorize(request)
        return rest
    }

    func route(_ request: ServerRequest, _ rest: [String]) throws(APIError) -> HTTPResponse {
        guard let first = rest.first else { return json(apiInfo(linkContext(for: request)), request) }
        switch first {
        case "items": return try items(request, Array(rest.dropFirst()), linkContext(for: request))
        // Binaries carry no links.
        case "assets": return try assets(request, Array(rest.dropFirst()))
        case "taxonomies": return try taxonomies(request, Array(rest.dropFirst()), linkContext(for: request))
        case "metadata-catalog":
            return try metadataCatalog(request, Array(rest.dropFirst()), linkContext(for: request))
        case "..": return json(apiVersions(linkContext(for: request)), request)
        case "personalization", "layouts": throw unserved(first)
        default: throw .notFound("no resource '\(first)' in the delivery API")
        }
    }

    /// The channel token gate (403) and, on a secure channel, the bearer gate (401).
    func authorize(_ request: ServerRequest) throws(APIError) {
        let offered = request.parameter("channelToken") ?? request.header("channelToken")
        guard let offered, constantTimeEqual(offered, configuration.channelToken.revealedForRequest) else {
            throw .channelToken
        }
        try authorizeBearer(request)
    }

    /// On a secure channel, the bearer gate (401).
    func authorizeBearer(_ request: ServerRequest) throws(APIError) {
        if let bearer = configuration.bearer {
            guard let authorization = request.header("Authorization"), authorization.lowercased().hasPrefix("bearer "),
                constantTimeEqual(String(authorization.dropFirst(7).trimmingSpaces()), bearer.revealedForRequest)
            else { throw .bearer }
        }
    }

    /// Links point back at the host the client used (when it is a plain host[:port]).
    func linkContext(for request: ServerRequest) -> LinkContext {
        var host = request.header("Host") ?? ""
        let allowed = host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                UInt8(ascii: "["), UInt8(ascii: "]"):
                return true
            default: return false
            }
        }
        if host.isEmpty || !allowed || host.count > 255 { host = "localhost" }
        // Links carry the token as OCM's do: the one place the server writes it into an answer.
        return LinkContext(baseURL: "http://\(host)", channelToken: configuration.channelToken.revealedForRequest)
    }

    /// A JSON answer with an ETag; `If-None-Match` on the same tag gives 304. `emptyingLinks`: the
    /// answer's `links` arrays are written empty when the request says `links=none` (`linksNone`).
    func json(_ value: JSON, _ request: ServerRequest, emptyingLinks: Bool = false) -> HTTPResponse {
        let writer = JSONWriter(emptying: emptyingLinks && linksNone(request) ? "links" : nil)
        let bytes = writer.bytes(value)
        return json(bytes: bytes, tag: EntityTag.of(bytes), request)
    }

    /// A serialised JSON answer with its tag.
    func json(bytes: [UInt8], tag: String, _ request: ServerRequest) -> HTTPResponse {
        if EntityTag.noneMatch(request.header("If-None-Match"), matches: tag) {
            return HTTPResponse(status: 304, headers: [("ETag", tag)])
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("ETag", tag)], body: .bytes(bytes))
    }
}

/// Compares secrets without an early exit, so timing does not reveal a prefix.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    var x = a.utf8.makeIterator()
    var y = b.utf8.makeIterator()
    var difference = UInt8(a.utf8.count == b.utf8.count ? 0 : 1)
    while true {
        let p = x.next()
        let q = y.next()
        if p == nil && q == nil { return difference == 0 }
        difference |= (p ?? 0) ^ (q ?? 0)
    }
}
