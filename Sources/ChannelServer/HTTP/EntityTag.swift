/// Strong entity tags and the conditional-request rules that use them (RFC 9110 §8.8.3, §13.1.2).
public enum EntityTag {
    /// A quoted tag derived from the bytes (FNV-1a, 64 bit): stable across runs and machines.
    public static func of(_ bytes: [UInt8]) -> String {
        "\"\(String(fnv1a(bytes), radix: 16))\""
    }

    /// A quoted tag derived from a text (for files: id, size and modification time).
    public static func of(_ text: String) -> String {
        "\"\(String(fnv1a(Array(text.utf8)), radix: 16))\""
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
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hash
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
