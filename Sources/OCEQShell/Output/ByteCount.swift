import OCEQCore

/// Byte counts for people, in summaries and progress lines.
package enum ByteCount {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.1 GB`, `2.0 TB`: powers of 1024, one decimal rounded as the C
    /// library's `%.1f` rounds (half to even, the count over the unit being exact in binary), in
    /// integers. `String(cFormat: "%.1f")` went through `vsnprintf` at 2 µs a call, 0.15 ms of the tail
    /// of a 74-file `download` (perf); Foundation's `String(format:)` cost far more.
    package static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        let count = UInt64(bytes)
        var unit = 0
        var divisor: UInt64 = 1024
        while unit < units.count - 1, count / divisor >= 1024 {
            divisor *= 1024
            unit += 1
        }
        // Tenths of the unit, rounded half to even: count * 10 / divisor in full width.
        var (tenths, remainder) = divisor.dividingFullWidth(count.multipliedFullWidth(by: 10))
        if remainder * 2 > divisor || (remainder * 2 == divisor && tenths % 2 == 1) { tenths += 1 }
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
