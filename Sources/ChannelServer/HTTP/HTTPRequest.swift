/// One HTTP request as the router sees it: the raw target kept for logging, the path split into
/// percent-decoded segments, and the query decoded the way a Java servlet decodes it (`+` is a space).
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, ...
    public var method: String
    /// The request target exactly as sent (`/content/...?q=...`), for logs after redaction.
    public var target: String
    /// Percent-decoded path segments; empty segments are dropped.
    public var pathSegments: [String]
    /// Decoded query parameters in the order sent.
    public var query: [(name: String, value: String)]
    /// Request headers by lower-cased name (the last one wins).
    public var headers: [String: String]
    /// The peer's address, for the access log.
    public var clientAddress: String

    /// A request built from its parts; `target` is parsed into segments and query.
    public init(method: String, target: String, headers: [String: String] = [:], clientAddress: String = "-") {
        self.method = method
        self.target = target
        self.headers = headers
        self.clientAddress = clientAddress
        let (path, queryText) = HTTPRequest.split(target)
        pathSegments = path.split(separator: "/", omittingEmptySubsequences: true).map {
            PercentDecoding.decode(Substring($0), plusAsSpace: false)
        }
        query = HTTPRequest.parseQuery(queryText)
    }

    /// The first value of query parameter `name` (exact, case-sensitive name).
    public func parameter(_ name: String) -> String? {
        query.first(where: { $0.name == name })?.value
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    static func split(_ target: String) -> (path: Substring, query: Substring) {
        var path = Substring(target)
        if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
        guard let mark = path.firstIndex(of: "?") else { return (path, "") }
        return (path[..<mark], path[path.index(after: mark)...])
    }

    static func parseQuery(_ text: Substring) -> [(name: String, value: String)] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (
                    PercentDecoding.decode(pair[..<eq], plusAsSpace: true),
                    PercentDecoding.decode(pair[pair.index(after: eq)...], plusAsSpace: true)
                )
            }
            return (PercentDecoding.decode(pair, plusAsSpace: true), "")
        }
    }
}

/// Percent-decoding that never fails: a malformed escape is kept literally, invalid UTF-8 becomes U+FFFD.
public enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`).
    public static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "%")) || (plusAsSpace && utf8.contains(UInt8(ascii: "+"))) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let byte = utf8[i]
            if byte == UInt8(ascii: "%") {
                let h1 = utf8.index(after: i)
                if h1 != utf8.endIndex {
                    let h2 = utf8.index(after: h1)
                    if h2 != utf8.endIndex, let hi = hexValue(utf8[h1]), let lo = hexValue(utf8[h2]) {
                        bytes.append(hi << 4 | lo)
                        i = utf8.index(after: h2)
                        continue
                    }
                }
                bytes.append(byte)
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                bytes.append(0x20)
            } else {
                bytes.append(byte)
            }
            i = utf8.index(after: i)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
