// Values that hold a channel token or a bearer token print with both hidden, whether through
// string interpolation (`description`) or reflection (`debugDescription`), so a test failure, a
// `print` or a `dump` cannot leak them.
import OCEQCore

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible {
    /// `GET <url>` with `channelToken` shown as `REDACTED`.
    public var description: String { "\(method) \(Redactor.redactTokenParameters(url))" }

    /// The method, redacted URL and headers (the bearer token hidden).
    public var debugDescription: String {
        let shown = headers.map { $0.name.lowercased() == "authorization" ? HTTPHeader($0.name, "REDACTED") : $0 }
        return "HTTPRequest(\(description), headers: \(shown))"
    }
}

extension PreparedRequest: CustomDebugStringConvertible {
    /// The method, redacted URL and redacted headers.
    public var debugDescription: String { "PreparedRequest(\(description), headers: \(redactedHeaders))" }
}

extension DeliveryConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    /// The server and which tokens are set, never their values.
    public var description: String {
        "DeliveryConfiguration(server: \(server), channelToken: \(channelToken == nil ? "none" : "REDACTED"), "
            + "bearerToken: \(bearerToken == nil ? "none" : "REDACTED"), userAgent: \(userAgent))"
    }

    public var debugDescription: String { description }
}

extension Endpoint: CustomStringConvertible, CustomDebugStringConvertible {
    /// The path and query items, the request's channel token hidden.
    public var description: String {
        let items = queryItems(defaultToken: nil).map {
            $0.name == "channelToken" ? "channelToken=REDACTED" : $0.description
        }
        return encodedPath + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
    }

    public var debugDescription: String { "Endpoint(\(description))" }
}

extension RequestParameters: CustomStringConvertible, CustomDebugStringConvertible {
    /// The parameters sorted by name, the channel token hidden.
    public var description: String {
        var items = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if channelToken != nil { items.insert("channelToken=REDACTED", at: 0) }
        return "[" + items.joined(separator: ", ") + "] (\(version.rawValue))"
    }

    public var debugDescription: String { "RequestParameters\(description)" }
}

extension Redactor: CustomStringConvertible, CustomDebugStringConvertible {
    /// How many secrets it hides, never the secrets.
    public var description: String { "Redactor(\(secrets.count) secrets)" }

    public var debugDescription: String { description }
}

extension Link: CustomStringConvertible, CustomDebugStringConvertible {
    /// `rel → href`, the href's `channelToken` shown as `REDACTED` (servers put it in every link).
    public var description: String { "\(rel) → \(Redactor.redactTokenParameters(href))" }

    public var debugDescription: String { "Link(\(description))" }
}

extension Asset: CustomDebugStringConvertible, CustomReflectable {
    /// `Asset(id, type, "name")`: no links, so no token (the raw JSON carries it in every href).
    /// (`description` is the item's own description field, so printing goes through these.)
    public var debugDescription: String { "Asset(\(id), \(type), \"\(name)\")" }

    /// Reflection shows the id, type and name only.
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "type": type, "name": name]) }
}
