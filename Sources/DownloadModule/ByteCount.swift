import Foundation

/// Byte counts for people.
enum ByteCount {
    /// `512 B`, `1.5 KB`, `12.3 MB`, `1.1 GB` (powers of 1024).
    static func text(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KB", "MB", "GB"] {
            if value < 1024 || unit == "GB" { return String(format: "%.1f", value) + " " + unit }
            value /= 1024
        }
        return "\(bytes) B"
    }
}
