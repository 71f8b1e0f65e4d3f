// Rich text (largetext HTML) as plain terminal text: tags dropped, block ends as line breaks, the
// common entities decoded. Enough to read a body or make an excerpt; not an HTML renderer.

import Foundation
import OCEQShell

/// HTML to plain text.
enum HTMLText {
    /// Tags after which a line ends.
    static let blockTags: Set<String> = [
        "p", "/p", "br", "br/", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "li", "/li", "/ul", "/ol", "/div",
        "/blockquote", "/tr",
    ]

    /// `html` without markup, one line per paragraph, control characters removed.
    static func plain(_ html: String) -> String {
        var out = ""
        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let inside = html[html.index(after: index)..<close].lowercased()
                let name = String(inside.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first ?? "")
                if blockTags.contains(name) && !out.isEmpty && !out.hasSuffix("\n") { out += "\n" }
                if name == "li" { out += "• " }
                index = html.index(after: close)
                continue
            }
            out.append(character == "\n" || character == "\r" || character == "\t" ? " " : character)
            index = html.index(after: index)
        }
        out = decodeEntities(out)
        let lines = out.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        return TerminalText.cleanKeepingLines(lines.filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    static let entities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "#39": "'", "nbsp": " ", "mdash": "—",
        "ndash": "–", "hellip": "…", "rsquo": "’", "lsquo": "‘", "rdquo": "”", "ldquo": "“",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";") {
                let name = String(after[..<semi])
                if let value = entities[name] {
                    out += value
                    rest = after[after.index(after: semi)...]
                    continue
                }
                if name.hasPrefix("#"), let code = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                    rest = after[after.index(after: semi)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }
}
