/// The origin of a delivery server: scheme, host and optional port, with no path.
///
/// Oracle's SDK silently drops a path from its base URL for most calls and keeps it for
/// thumbnails; this type refuses a path instead, so every request is built the same way.
import OCEQCore

public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host as written (an IPv6 literal keeps its brackets).
    public let host: String
    /// The port, if one was given.
    public let port: Int?

    /// Parses `http[s]://host[:port]` with an optional trailing `/`.
    public init(_ text: String) throws(DeliveryError) {
        func fail(_ reason: String) -> DeliveryError { .invalidServerAddress(text, reason: reason) }
        guard let schemeEnd = text.firstRange(of: "://") else { throw fail("expected http://host or https://host") }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw fail("the scheme must be http or https") }
        var rest = Substring(text[schemeEnd.upperBound...])
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/") else {
            throw fail("expected only scheme, host and port (the API path is added by oceq)")
        }
        guard !rest.contains("?"), !rest.contains("#") else { throw fail("a query or fragment is not allowed") }
        guard !rest.contains("@") else { throw fail("credentials in the URL are not allowed") }
        var host = rest
        var port: Int?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("unterminated IPv6 address") }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else { throw fail("invalid port") }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]) else { throw fail("invalid port") }
            port = p
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace }) else { throw fail("missing or invalid host") }
        if let port, !(1...65535).contains(port) { throw fail("the port must be between 1 and 65535") }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
    }

    /// `scheme://host[:port]`
    public var origin: String {
        scheme + "://" + host + (port.map { ":\($0)" } ?? "")
    }

    public var description: String { origin }
}
