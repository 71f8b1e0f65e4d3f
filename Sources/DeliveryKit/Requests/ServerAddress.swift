import FoundationEssentials
import OCEQCore

/// The origin of a delivery server: scheme, host and optional port, with no path.
///
/// Oracle's SDK silently drops a path from its base URL for most calls and keeps it for
/// thumbnails; this type refuses a path instead, so every request is built the same way. The text
/// is parsed by Foundation's `URLComponents` (RFC 3986); an error never shows user info, a query or
/// a fragment, where a token could be.
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host as written, lower-cased (an IPv6 literal keeps its brackets).
    public let host: String
    /// The port, if one was given.
    public let port: Int?
    /// `scheme://host[:port]`: made once, not for every request's URL (2.3 K instructions each).
    public let origin: String

    /// Parses `http[s]://host[:port]` with an optional trailing `/`, or followed by the delivery API's
    /// base `/content/published/api/v1.1` (the URL `oceq serve` prints).
    public init(_ text: String) throws(DeliveryError) {
        func fail(_ reason: String) -> DeliveryError { .invalidServerAddress(Self.shown(text), reason: reason) }
        guard let components = URLComponents(string: text) else {
            throw fail("not an address of the form http[s]://host[:port]")
        }
        guard let scheme = components.scheme?.lowercased(), components.host != nil, text.contains("://") else {
            throw fail("expected http://host or https://host")
        }
        guard scheme == "http" || scheme == "https" else { throw fail("the scheme must be http or https") }
        // The delivery API's own base (what `oceq serve` prints, what OCM's documentation shows) names
        // the same server: oceq adds exactly that path, so it is taken off rather than refused.
        let path = components.path
        guard path.isEmpty || path == "/" || Self.apiBases.contains(path) else {
            throw fail("expected only scheme, host and port (the API path is added by oceq)")
        }
        guard components.query == nil, components.fragment == nil else {
            throw fail("a query or fragment is not allowed")
        }
        guard components.user == nil, components.password == nil else {
            throw fail("credentials in the URL are not allowed")
        }
        // An IPv6 literal keeps its brackets and a zone's `%25`; a name is kept as written.
        let encoded = components.percentEncodedHost ?? ""
        let host = encoded.hasPrefix("[") ? encoded : components.host ?? ""
        guard !host.isEmpty else { throw fail("missing or invalid host") }
        if let port = components.port, !(1...65535).contains(port) {
            throw fail("the port must be between 1 and 65535")
        }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port
        origin = scheme + "://" + self.host + (components.port.map { ":\($0)" } ?? "")
    }

    /// The paths an address may end in: the delivery API's base, which oceq adds to every request.
    static let apiBases: Set<String> = [APIVersion.v11.basePath, APIVersion.v11.basePath + "/"]

    /// `text` as an error may show it: user info, a query and a fragment (where a token could be)
    /// replaced by `REDACTED`.
    static func shown(_ text: String) -> String {
        var shown = Substring(text)
        if let cut = shown.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            shown = shown[..<cut] + "?REDACTED"
        }
        if let at = shown.lastIndex(of: "@") {
            let start = shown.firstRange(of: "://")?.upperBound ?? shown.startIndex
            if start <= at { shown = shown[..<start] + "REDACTED" + shown[at...] }
        }
        return String(shown)
    }

    public var description: String { origin }
}
