import OCEQCore

/// Where the served API lives, for the links written into responses.
public struct LinkContext: Sendable {
    /// Scheme, host and port, e.g. `http://127.0.0.1:8411` (a trailing slash is dropped).
    public var baseURL: String
    /// The token every generated href carries as `channelToken=` (percent-encoded there).
    public var channelToken: String
    /// The request said `links=none`: the shaper builds every `links` array empty instead of making
    /// links that the answer's writer would drop (`JSONWriter(emptying:)` empties the rest).
    public var omitsLinks: Bool

    public init(baseURL: String, channelToken: String, omitsLinks: Bool = false) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.channelToken = channelToken
        self.omitsLinks = omitsLinks
    }

    /// `{base}/content/published/api/v1.1`.
    public var apiRoot: String { baseURL + "/content/published/api/v1.1" }

    /// `channelToken=<percent-encoded token>`.
    public var tokenQuery: String { "channelToken=" + URLEncoding.component(channelToken) }
}

/// Link objects as Delivery writes them: `{href, rel, method: "GET", mediaType}`.
enum DeliveryLink {
    static func make(href: String, rel: String, mediaType: String) -> JSON {
        .object(["href": .string(href), "rel": .string(rel), "method": "GET", "mediaType": .string(mediaType)])
    }
}
