/// Strong entity tags and the conditional-request rules that use them (RFC 9110 §8.8.3, §13.1.2).
public enum EntityTag {
    /// A quoted tag derived from the bytes (`contentHash`, 64 bit): stable across runs and machines.
    public static func of(_ bytes: [UInt8]) -> String {
        "\"\(String(contentHash(bytes), radix: 16))\""
    }

    /// A 64-bit hash of the bytes: `ContentHasher`'s (eight bytes at a time, about eight times faster
    /// than byte-wise FNV-1a: an answer of 40 kB is hashed in a few microseconds). Not for secrets.
    public static func contentHash(_ bytes: [UInt8]) -> UInt64 {
        var hasher = ContentHasher()
        hasher.combine(bytes)
        return hasher.finalize().low
    }

    /// A quoted tag derived from a text (for files: id, size and modification time).
    public static func of(_ text: String) -> String {
        "\"\(String(fnv1a(Array(text.utf8)), radix: 16))\""
    }

    /// The tag of a file: the same as `of("\(path)|\(size)|\(seconds).\(nanoseconds)")`, hashed
    /// piece by piece instead of through an interpolated string.
    public static func ofFile(path: String, size: Int, seconds: Int, nanoseconds: Int) -> String {
        var hash = fnv1a(path.utf8, continuing: fnv1aBasis)
        hash = fnv1a(CollectionOfOne(UInt8(ascii: "|")), continuing: hash)
        hash = fnv1a(String(size).utf8, continuing: hash)
        hash = fnv1a(CollectionOfOne(UInt8(ascii: "|")), continuing: hash)
        hash = fnv1a(String(seconds).utf8, continuing: hash)
        hash = fnv1a(CollectionOfOne(UInt8(ascii: ".")), continuing: hash)
        hash = fnv1a(String(nanoseconds).utf8, continuing: hash)
        return "\"\(String(hash, radix: 16))\""
    }

    /// True when an `If-None-Match` value matches `tag` (weak comparison, `*` matches anything).
    public static func noneMatch(_ header: String?, matches tag: String) -> Bool {
        guard let header else { return false }
        let bare = strip(tag)
        return header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingSpaces()
            return trimmed == "*" || strip(trimmed) == bare
        }
    }

    /// FNV-1a over bytes.
    public static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        fnv1a(bytes, continuing: fnv1aBasis)
    }

    /// The FNV-1a offset basis: the hash of no bytes.
    public static let fnv1aBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a continued over `bytes` from `hash`.
    public static func fnv1a(_ bytes: some Sequence<UInt8>, continuing hash: UInt64) -> UInt64 {
        func run(_ buffer: some Sequence<UInt8>) -> UInt64 {
            var hash = hash
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        return bytes.withContiguousStorageIfAvailable { run($0) } ?? run(bytes)
    }

    private static func strip(_ tag: some StringProtocol) -> Substring {
        var s = Substring(tag)
        if s.hasPrefix("W/") { s = s.dropFirst(2) }
        return s
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        let sub = self[...]
        guard let first = sub.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = sub.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return Substring(sub[first...last])
    }
}
