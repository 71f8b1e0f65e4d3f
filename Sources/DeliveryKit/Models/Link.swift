/// A hypermedia link (`self`, `canonical`, `describedby`, `first`, `next`, a file link, ...).
import OCEQCore

public struct Link: Sendable, Hashable {
    public var href: String
    public var rel: String
    public var method: String
    public var mediaType: String?
    public var templated: Bool?
    public var profile: String?

    public init(
        href: String, rel: String, method: String = "GET", mediaType: String? = nil, templated: Bool? = nil,
        profile: String? = nil
    ) {
        self.href = href
        self.rel = rel
        self.method = method
        self.mediaType = mediaType
        self.templated = templated
        self.profile = profile
    }

    /// A link from its JSON object, or nil when it has no string `href`.
    public init?(json: JSON) {
        guard let href = json["href"]?.stringValue else { return nil }
        self.init(
            href: href, rel: json["rel"]?.stringValue ?? "", method: json["method"]?.stringValue ?? "GET",
            mediaType: json["mediaType"]?.stringValue, templated: json["templated"]?.boolValue,
            profile: json["profile"]?.stringValue)
    }

    /// The links of a JSON array (entries without `href` are skipped).
    static func list(_ json: JSON?) -> [Link] {
        json?.arrayValue?.compactMap(Link.init(json:)) ?? []
    }
}

extension Array where Element == Link {
    /// The first link with this rel (compared case-insensitively).
    public func first(rel: String) -> Link? {
        first { $0.rel.lowercased() == rel.lowercased() }
    }
}
