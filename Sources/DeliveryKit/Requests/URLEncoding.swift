// Percent-encoding as Oracle's SDK gets it from Foundation's URLQueryItem (delivery-api.md §4), with
// one deliberate difference: `+` is encoded as `%2B`, since a form-style decoder reads a bare `+`
// as a space. Path segments are encoded once (the SDK encodes ids twice).

/// One `name=value` pair of a query string.
public struct QueryItem: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value`, both percent-encoded.
    public var encoded: String { URLEncoding.query(name) + "=" + URLEncoding.query(value) }

    public var description: String { "\(name)=\(value)" }
}

/// Percent-encoding for query components and path segments.
public enum URLEncoding {
    /// Bytes left as they are in a query name or value: unreserved characters plus
    /// `! $ ' ( ) * , ; : @ / ?` (what URLQueryItem leaves alone, minus `+`).
    static let queryAllowed = allowedSet("!$'()*,;:@/?")
    /// Bytes left as they are in a path segment: unreserved characters plus `! $ & ' ( ) * + , = : @`.
    static let segmentAllowed = allowedSet("!$&'()*+,=:@")

    static func allowedSet(_ extra: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8 {
            table[Int(byte)] = true
        }
        for byte in extra.utf8 { table[Int(byte)] = true }
        return table
    }

    /// `text` encoded for a query name or value.
    public static func query(_ text: String) -> String { encode(text, queryAllowed) }

    /// `text` encoded as one path segment (a `/` becomes `%2F`; `.` and `..` are encoded so they
    /// cannot be taken as dot segments).
    public static func pathSegment(_ text: String) -> String {
        if !text.isEmpty && text.allSatisfy({ $0 == "." }) {
            return String(repeating: "%2E", count: text.count)
        }
        return encode(text, segmentAllowed)
    }

    static func encode(_ text: String, _ allowed: [Bool]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if allowed[Int(byte)] {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and nothing else); invalid escapes are kept as they are.
    public static func decode(_ text: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        func hexValue(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let hi = hexValue(bytes[i + 1]),
                let lo = hexValue(bytes[i + 2])
            {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
