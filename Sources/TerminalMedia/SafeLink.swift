// Which `href`s become links. Only absolute http, https, mailto and ftp URLs do: `javascript:`,
// `data:`, `vbscript:`, `file:`, relative and fragment links stay plain text. What is kept is
// printable ASCII only (anything else percent-encoded, controls and spaces dropped), so a URL can
// never end an OSC 8 sequence early or carry one of its own.

/// Checking and cleaning link targets.
enum SafeLink {
    static let schemes = ["http://", "https://", "mailto:", "ftp://"]

    /// `href` as a link target, or nil when it must not be one.
    static func url(_ href: String) -> String? {
        var out = ""
        for byte in href.utf8 {
            switch byte {
            case 0x21...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x80...0xFF: out += "%" + String(byte, radix: 16, uppercase: true)
            default: continue
            }
        }
        let lower = out.lowercased()
        guard schemes.contains(where: { lower.hasPrefix($0) }), out.count < 2048 else { return nil }
        return out
    }
}
