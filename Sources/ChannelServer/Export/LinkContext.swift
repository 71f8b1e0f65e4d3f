import DeliveryKit

/// Where the served API lives, for the links written into responses.
public struct LinkContext: Sendable {
    /// Scheme, host and port, e.g. `http://127.0.0.1:8411` (a trailing slash is dropped).
    public var baseURL: String
    /// The token every generated href carries as `channelToken=` (percent-encoded there).
    public var channelToken: String

    public init(baseURL: String, channelToken: String) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.channelToken = channelToken
    }

    /// `{base}/content/published/api/v1.1`.
    public var apiRoot: String { baseURL + "/content/published/api/v1.1" }

    /// `channelToken=<percent-encoded token>`.
    public var tokenQuery: String { "channelToken=" + PercentEncoding.encode(channelToken) }
}

/// Percent-encoding for URL path segments and query values: everything but RFC 3986's
/// unreserved characters (`A–Z a–z 0–9 - . _ ~`) is written `%XX` (upper-case hex, UTF-8 bytes).
public enum PercentEncoding {
    /// `text` with every byte outside the unreserved set percent-encoded.
    public static func encode(_ text: String, keeping extra: Set<UInt8> = []) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var clean = true
        for byte in text.utf8 {
            if isUnreserved(byte) || extra.contains(byte) {
                out.append(byte)
            } else {
                clean = false
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return clean ? text : String(decoding: out, as: UTF8.self)
    }

    /// `text` with `%XX` sequences decoded (and `+` read as a space when `plusAsSpace`); nil when
    /// a sequence is malformed or the result is not UTF-8.
    public static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else {
                    return nil
                }
                out.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                out.append(0x20)
            } else {
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}

/// Link objects as Delivery writes them: `{href, rel, method: "GET", mediaType}`.
enum DeliveryLink {
    static func make(href: String, rel: String, mediaType: String) -> JSON {
        .object(["href": .string(href), "rel": .string(rel), "method": "GET", "mediaType": .string(mediaType)])
    }
}
