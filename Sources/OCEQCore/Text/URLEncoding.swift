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

/// Percent-encoding for query components and path segments, and the one percent-decoder of
/// the package (the client's and `oceq serve`'s).
public enum URLEncoding {
    /// Bytes left as they are in a query name or value: unreserved characters plus
    /// `! $ ' ( ) * , ; : @ / ?` (what URLQueryItem leaves alone, minus `+`).
    static let queryAllowed = allowedSet("!$'()*,;:@/?")
    /// Bytes left as they are in a path segment: unreserved characters plus `! $ & ' ( ) * + , = : @`.
    static let segmentAllowed = allowedSet("!$&'()*+,=:@")
    /// Only RFC 3986's unreserved characters (`A–Z a–z 0–9 - . _ ~`).
    static let unreserved = allowedSet("")
    /// Every byte encoded (a dot segment's dots become `%2E`).
    private static let nothingAllowed = [Bool](repeating: false, count: 256)

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
        if isDotSegment(text) { return String(repeating: "%2E", count: text.utf8.count) }
        return encode(text, segmentAllowed)
    }

    /// Appends `text` encoded for a query name or value (as `query` encodes it) to `bytes`.
    public static func appendQuery(_ text: String, to bytes: inout [UInt8]) {
        append(text, queryAllowed, to: &bytes)
    }

    /// Appends `text` encoded as one path segment (as `pathSegment` encodes it) to `bytes`.
    public static func appendPathSegment(_ text: String, to bytes: inout [UInt8]) {
        append(text, isDotSegment(text) ? nothingAllowed : segmentAllowed, to: &bytes)
    }

    /// Whether `text` is dots only (`.`, `..`, …), which a path segment must not be left as.
    private static func isDotSegment(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// `text` with every byte but the unreserved characters percent-encoded: what `oceq serve`
    /// writes into path segments and query values of the links it serves.
    public static func component(_ text: String) -> String { encode(text, unreserved) }

    /// `text` with every byte that `allowed` does not allow written `%XX` (upper-case hex, UTF-8);
    /// `text` itself when nothing needs encoding.
    static func encode(_ text: String, _ allowed: [Bool]) -> String {
        guard text.utf8.contains(where: { !allowed[Int($0)] }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        append(text, allowed, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` to `bytes` with every byte that `allowed` does not allow written `%XX`.
    static func append(_ text: String, _ allowed: [Bool], to bytes: inout [UInt8]) {
        func hex(_ digit: UInt8) -> UInt8 { digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10 }
        for byte in text.utf8 {
            if allowed[Int(byte)] {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex(byte >> 4))
                bytes.append(hex(byte & 0xF))
            }
        }
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`, as a query is read); never
    /// fails: a malformed escape is kept as it is, invalid UTF-8 becomes U+FFFD.
    public static func decode(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String {
        decode(Array(text.utf8)[...], plusAsSpace: plusAsSpace)
    }

    /// Decodes `%XX` escapes in UTF-8 bytes (and `+` as a space when `plusAsSpace`), as
    /// `decode(_:plusAsSpace:)` does; `oceq serve` reads request targets with it.
    public static func decode(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
        guard bytes.contains(UInt8(ascii: "%")) || (plusAsSpace && bytes.contains(UInt8(ascii: "+"))) else {
            return bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let high = hexValue(bytes[i + 1]),
                let low = hexValue(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
                continue
            }
            out.append(byte == UInt8(ascii: "+") && plusAsSpace ? 0x20 : byte)
            i += 1
        }
        return out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
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
