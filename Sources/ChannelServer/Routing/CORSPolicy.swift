// Cross-origin access for browser apps (`--cors ORIGIN`), off by default as in OCM, where an
// administrator lists the front-channel origins. A request whose `Origin` is listed (or any
// origin, with `*`) gets `Access-Control-Allow-Origin` on every answer, errors included; a
// preflight `OPTIONS` from a listed origin is answered 204 with the methods and the headers
// Oracle's SDKs send (`Authorization`, `channelToken`, `Content-Type`, `X-Requested-With`) plus
// the conditional ones a browser cache adds. An origin not listed gets no CORS headers, and its
// preflight the 405 any OPTIONS gets. `Vary: Origin` goes on every answer while a list of origins
// is in force, since the answer then depends on the `Origin` header.

/// Which origins may read the API's answers from a browser.
public struct CORSPolicy: Sendable, Equatable {
    /// The allowed origins (`scheme://host[:port]`, compared case-insensitively), or `*`.
    public var origins: [String]

    /// The methods a preflight allows.
    static let methods = "GET, HEAD, POST, OPTIONS"
    /// The request headers a preflight allows.
    static let requestHeaders =
        "Authorization, channelToken, Content-Type, X-Requested-With, If-None-Match, If-Range, Range"
    /// The response headers a script may read besides the simple ones.
    static let exposedHeaders = "ETag, Content-Disposition, Content-Range, Accept-Ranges, Content-Length"

    /// A policy allowing `origins` (empty: CORS off).
    public init(origins: [String] = []) {
        self.origins = origins.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// True when no origin is allowed.
    public var isOff: Bool { origins.isEmpty }

    /// The `Access-Control-Allow-Origin` value for `request`, nil when its origin is not allowed.
    func allowedOrigin(_ request: ServerRequest) -> String? {
        guard !origins.isEmpty, let origin = request.header("Origin"), !origin.isEmpty else { return nil }
        if origins.contains("*") { return "*" }
        let lower = origin.quickLowercased
        return origins.contains(where: { $0.quickLowercased == lower }) ? origin : nil
    }

    /// The 204 answer to a preflight from an allowed origin; nil for anything else.
    func preflight(_ request: ServerRequest) -> HTTPResponse? {
        guard request.method == "OPTIONS", let origin = allowedOrigin(request) else { return nil }
        var headers: [(name: String, value: String)] = [
            ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Methods", CORSPolicy.methods),
            ("Access-Control-Allow-Headers", CORSPolicy.requestHeaders), ("Access-Control-Max-Age", "600"),
        ]
        if !origins.contains("*") { headers.append(("Vary", "Origin")) }
        return HTTPResponse(status: 204, headers: headers)
    }

    /// Adds the CORS headers `request` earns to `response`.
    func decorate(_ response: inout HTTPResponse, for request: ServerRequest) {
        guard !origins.isEmpty else { return }
        if !origins.contains("*") { response.addHeader("Vary", "Origin") }
        guard let origin = allowedOrigin(request) else { return }
        response.addHeader("Access-Control-Allow-Origin", origin)
        response.addHeader("Access-Control-Expose-Headers", CORSPolicy.exposedHeaders)
    }
}
