/// Byte counts for people, in summaries and progress lines.
package enum ByteCount {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.1 GB`, `2.0 TB` (powers of 1024, one decimal, rounded as
    /// `String(format: "%.1f")` rounds). Without Foundation's formatting, whose first call cost a
    /// `download` summary 0.9 M instructions and each later one 10 000 (callgrind).
    package static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KB", "MB", "GB", "TB"] {
            if value < 1024 || unit == "TB" { return oneDecimal(value) + " " + unit }
            value /= 1024
        }
        return "\(bytes) B"
    }

    /// `value` with one decimal. `value * 10` is exact for any byte count below 2^49 divided by
    /// powers of 1024 (a power of two times an integer that gains four bits), so rounding it half to
    /// even gives the decimal `%.1f` prints.
    static func oneDecimal(_ value: Double) -> String {
        let whole = Int64((value * 10).rounded(.toNearestOrEven))
        return "\(whole / 10).\(whole % 10)"
    }
}
