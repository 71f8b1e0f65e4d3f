import Foundation

/// Byte counts for people, in summaries and progress lines.
package enum ByteCount {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.1 GB`, `2.0 TB` (powers of 1024, one decimal).
    package static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KB", "MB", "GB", "TB"] {
            if value < 1024 || unit == "TB" { return String(format: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return "\(bytes) B"
    }
}
