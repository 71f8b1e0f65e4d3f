import OCEQCore

/// Byte counts for people, in summaries and progress lines.
package enum ByteCount {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.1 GB`, `2.0 TB` (powers of 1024, one decimal: the C library's
    /// `%.1f`, `String(cFormat:)`; Foundation's `String(format:)` cost a `download` summary 0.9 M
    /// instructions at its first call and 10 000 at each later one, callgrind).
    package static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KB", "MB", "GB", "TB"] {
            if value < 1024 || unit == "TB" { return String(cFormat: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return "\(bytes) B"
    }

}
