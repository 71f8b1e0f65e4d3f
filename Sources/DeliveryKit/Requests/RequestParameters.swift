/// The API version segment of every path.
import OCEQCore

public enum APIVersion: String, Sendable, Hashable {
    case v1 = "v1"
    /// `v1.1`, the default.
    case v11 = "v1.1"

    /// The path every request of this version starts with: `/content/published/api/v1.1`.
    public var basePath: String { "/content/published/api/" + rawValue }
}

/// A parameter that is `all`, absent, or names joined by commas: `fields` (`fields=all`,
/// `fields=name,description`) and `expand` (`expand=all`, `expand=fields.author`).
public enum NamesParameter: Sendable, Hashable {
    case all
    case none
    case names([String])

    /// `all`, else the names between commas, as a statement writes them.
    public init(_ text: String) {
        self = text == "all" ? .all : .names(text.split(separator: ",").map(String.init))
    }

    var rendered: String? {
        switch self {
        case .all: return "all"
        case .none: return nil
        case .names(let names): return renderedNames(names)
        }
    }
}

/// The `fields` parameter: `all`, nothing, or field names.
public typealias FieldsParameter = NamesParameter

/// The `expand` parameter: `all`, nothing, or reference names (`fields.author`).
public typealias ExpandParameter = NamesParameter

/// Optional parts of a category read (`fields=`).
public enum CategoryField: String, Sendable, Hashable {
    case keywords
    case synonyms
    case relatedCategories
    case customProperties
    case all
}

/// Where a request goes: the path under `/content/published/api/{version}/` and its query items.
///
/// Query items are emitted sorted by name (as Oracle's SDK does, which is why its URLs start with
/// `channelToken=`), after any `leadingItems` (thumbnails put `format`/`type` first).
public struct Endpoint: Sendable, Hashable {
    public var version: APIVersion
    /// Path segments, each percent-encoded on output.
    public var path: [String]
    /// Items emitted first, in this order.
    public var leadingItems: [QueryItem]
    /// Items emitted after the leading ones, sorted by name together with `channelToken`.
    public var items: [QueryItem]
    /// The request's own channel token; when nil the client's default is used.
    public var channelToken: Secret?

    public init(
        version: APIVersion = .v11, path: [String], leadingItems: [QueryItem] = [], items: [QueryItem] = [],
        channelToken: Secret? = nil
    ) {
        self.version = version
        self.path = path
        self.leadingItems = leadingItems
        self.items = items
        self.channelToken = channelToken
    }

    /// The path with the API prefix, encoded: `/content/published/api/v1.1/items/…`.
    public var encodedPath: String {
        var bytes: [UInt8] = []
        appendEncodedPath(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `encodedPath` to `bytes`.
    func appendEncodedPath(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: version.basePath.utf8)
        bytes.append(UInt8(ascii: "/"))
        for (index, segment) in path.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "/")) }
            URLEncoding.appendPathSegment(segment, to: &bytes)
        }
    }

    /// All query items in wire order, with `token` (the request's own, else `defaultToken`) added.
    public func queryItems(defaultToken: Secret?) -> [QueryItem] {
        var sorted = items
        if let token = channelToken ?? defaultToken {
            sorted.append(QueryItem("channelToken", token.revealedForRequest))
        }
        sorted.sort { $0.name < $1.name }
        return leadingItems + sorted
    }

    /// The full URL on `server`, and the same URL with the channel token shown as `REDACTED`.
    ///
    /// Written as bytes into one buffer: made of string concatenations, maps and joins it cost about
    /// 35,000 instructions a request (callgrind, a download of 500 files: one URL each).
    public func url(on server: ServerAddress, defaultToken: Secret?) -> (url: String, redacted: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.append(contentsOf: server.origin.utf8)
        appendEncodedPath(to: &bytes)
        let items = queryItems(defaultToken: defaultToken)
        // The redacted URL differs only in the values of `channelToken`.
        var redacted = bytes
        for (index, item) in items.enumerated() {
            let separator = UInt8(ascii: index == 0 ? "?" : "&")
            bytes.append(separator)
            redacted.append(separator)
            let start = bytes.count
            URLEncoding.appendQuery(item.name, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            let valueStart = bytes.count
            URLEncoding.appendQuery(item.value, to: &bytes)
            if item.name == "channelToken" {
                redacted.append(contentsOf: bytes[start..<valueStart])
                redacted.append(contentsOf: "REDACTED".utf8)
            } else {
                redacted.append(contentsOf: bytes[start...])
            }
        }
        return (String(decoding: bytes, as: UTF8.self), String(decoding: redacted, as: UTF8.self))
    }
}

/// The parameters a request builder accumulates; one value per name, re-setting replaces.
public struct RequestParameters: Sendable, Hashable {
    /// Query parameters by name.
    public var values: [String: String] = [:]
    public var version: APIVersion = .v11
    public var channelToken: Secret?

    public init() {}

    subscript(name: String) -> String? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// Checks `limit` (0...500) and `offset` (≥ 0) when present.
    func validate() throws(DeliveryError) {
        if let text = values["limit"] {
            guard let limit = Int(text), (0...DeliveryAPI.maximumLimit).contains(limit) else {
                throw .invalidRequest("limit must be between 0 and \(DeliveryAPI.maximumLimit), got \(text)")
            }
        }
        if let text = values["offset"] {
            guard let offset = Int(text), offset >= 0 else {
                throw .invalidRequest("offset must be 0 or more, got \(text)")
            }
        }
    }

    func endpoint(_ path: [String], leading: [QueryItem] = []) throws(DeliveryError) -> Endpoint {
        try validate()
        return Endpoint(
            version: version, path: path, leadingItems: leading,
            items: values.map { QueryItem($0.key, $0.value) }, channelToken: channelToken)
    }
}

/// `fields` and `expand` name lists: `all` wins over any name, an empty list sends nothing.
private func renderedNames(_ names: [String]) -> String? {
    names.contains("all") ? "all" : names.isEmpty ? nil : names.joined(separator: ",")
}
