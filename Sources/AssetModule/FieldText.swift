// One-line text for field values: references as name (type, id), dates with offset and zone,
// long text as an excerpt with HTML removed, sizes in KB/MB. Server text is cleaned of control
// characters on the way.

import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQShell
import TerminalMedia

/// One-line summaries of field values; every piece of server text is cleaned of control characters.
enum FieldText {
    /// Excerpts are cut to this many characters.
    static let excerptLength = 80

    /// Whether `text` looks like HTML (a tag such as `<p>` or `</a>`).
    static func isHTML(_ text: String) -> Bool {
        FieldKind.looksLikeHTML(text)
    }

    /// `name (type, id)` for a reference stub or an item.
    static func reference(_ value: JSON) -> String {
        let id = value["id"]?.stringValue ?? "?"
        let name = value["name"]?.stringValue ?? ""
        let type = value["type"]?.stringValue ?? ""
        return reference(name: name, type: type, id: id)
    }

    /// `name (type, id)`.
    static func reference(name: String, type: String, id: String) -> String {
        let label = name.isEmpty ? "(unnamed)" : name
        let detail = type.isEmpty ? id : "\(type), \(id)"
        return TerminalText.clean("\(label) (\(detail))")
    }

    /// `2026-04-20 08:15:00 +10:00 (Australia/Sydney)`, `2026-03-31 17:52:30 UTC`.
    static func date(_ value: JSON) -> String {
        guard let text = value["value"]?.stringValue else { return TerminalText.clean(JSONWriter().string(value)) }
        return date(text, timezone: value["timezone"]?.stringValue)
    }

    /// An ISO-8601 value and zone name as readable text.
    static func date(_ value: String, timezone: String?) -> String {
        var text = value
        var offset = ""
        if text.hasSuffix("Z") {
            text.removeLast()
            offset = "UTC"
        } else if let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }),
            let t = text.firstIndex(of: "T"), sign > t
        {
            offset = String(text[sign...])
            text = String(text[..<sign])
        }
        if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
        text = text.replacingAllBytes(of: "T", with: " ")
        var out = offset.isEmpty ? text : "\(text) \(offset)"
        if let timezone, !timezone.isEmpty, timezone != offset, !(offset == "UTC" && timezone == "Etc/UTC") {
            out += " (\(timezone))"
        }
        return TerminalText.clean(out)
    }

    /// The one-line summary of `value` as `show` and `fields` print it.
    static func summary(_ value: JSON) -> String {
        switch FieldKind(value) {
        case .empty: return "(empty)"
        case .boolean: return value.boolValue == true ? "true" : "false"
        case .number, .decimal: return JSONWriter().string(value)
        case .text: return excerpt(value.stringValue ?? "")
        case .largetext:
            let text = value.stringValue ?? ""
            let html = isHTML(text)
            let plain = html ? RichText.plainLine(text) : text
            return excerpt(plain) + " (\(html ? "HTML, " : "")\(text.count) chars)"
        case .datetime: return date(value)
        case .reference: return reference(value)
        case .json: return excerpt(JSONWriter().string(value))
        case .list:
            let elements = value.arrayValue ?? []
            if elements.isEmpty { return "(none)" }
            let shown = elements.prefix(3).map { element -> String in
                FieldKind(element) == .reference ? (element["name"]?.stringValue ?? "?") : summary(element)
            }
            let more = elements.count > 3 ? ", …" : ""
            return "\(elements.count): " + TerminalText.clean(shown.joined(separator: ", ")) + more
        }
    }

    /// `text` on one line, at most `excerptLength` characters, cut with `…`.
    static func excerpt(_ text: String) -> String {
        let line = TerminalText.clean(text).split(separator: " ", omittingEmptySubsequences: true).joined(
            separator: " ")
        guard line.count > excerptLength else { return line }
        return String(line.prefix(excerptLength - 1)) + "…"
    }

    /// `1.2 MB`, `34.5 KB`, `512 B` (as `download` and `mirror` write sizes); empty for nil.
    static func size(_ bytes: Int?) -> String {
        bytes.map { ByteCount.text(Int64($0)) } ?? ""
    }
}
