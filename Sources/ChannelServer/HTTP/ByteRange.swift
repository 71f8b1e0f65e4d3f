/// A single `Range: bytes=...` request resolved against a length (RFC 9110 §14.2).
public struct ByteRange: Sendable, Equatable {
    public var offset: Int
    public var length: Int

    /// The outcome of reading a `Range` header.
    public enum Resolution: Sendable, Equatable {
        /// No usable range: send the whole representation (absent, malformed, or several ranges).
        case whole
        /// Send this part with 206.
        case partial(ByteRange)
        /// 416: the range starts past the end.
        case unsatisfiable
    }

    /// Resolves `header` for a representation of `size` bytes.
    public static func resolve(_ header: String?, size: Int) -> Resolution {
        guard let header, header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingSpaces()
        let last = spec[spec.index(after: dash)...].trimmingSpaces()
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return size == 0 ? .unsatisfiable : .whole }
            let length = min(suffix, size)
            return length == 0 ? .unsatisfiable : .partial(ByteRange(offset: size - length, length: length))
        }
        guard let start = Int(first), start >= 0 else { return .whole }
        guard start < size else { return .unsatisfiable }
        var end = size - 1
        if !last.isEmpty {
            guard let stop = Int(last), stop >= start else { return .whole }
            end = min(stop, size - 1)
        }
        return .partial(ByteRange(offset: start, length: end - start + 1))
    }
}
