// One renderer per output format. Each turns a `CommandResult` into text on a sink; server text is
// cleaned of control characters (`TerminalText.clean`) on the way. Item rows show the listing's
// columns (`ListingColumn`: what the query asked for); JSON shows the items as the server sent them.
// Commands return data and never read the format: this file and the renderers beside it are the
// only places that know what each format does with each kind of result.

import DeliveryKit
import OCEQCore

/// Turns command results into text.
package protocol Renderer {
    /// Writes `result` to `sink`.
    func render(_ result: CommandResult, to sink: any OutputSink)
}

extension OutputFormat {
    /// The renderer for this format.
    package var renderer: any Renderer {
        switch self {
        case .table: return TableRenderer()
        case .expanded: return ExpandedRenderer()
        case .json: return JSONRenderer(lines: false)
        case .ndjson: return JSONRenderer(lines: true)
        case .csv: return CSVRenderer()
        }
    }
}

extension Settings {
    /// The renderer for the format, with the settings that shape it (`csv-raw`).
    package var renderer: any Renderer {
        format == .csv ? CSVRenderer(raw: csvRaw) : format.renderer
    }
}

extension Session {
    /// Renders `result` in the session's format to its output, now: for a command that must show
    /// what it did before it fails (a download's summary, then the error).
    package func render(_ result: CommandResult) {
        settings.renderer.render(result, to: output)
    }
}

/// Text written as it is, with a final newline.
enum PlainText {
    static func write(_ text: String, to sink: any OutputSink) {
        sink.write(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
    }
}

/// An item's fields as lines, for the expanded view and csv's `field,value` rows.
package enum ItemColumns {
    /// The lines of one item for the expanded view: standard fields, then `fields.*`.
    static func fieldLines(_ asset: Asset) -> [(String, String)] {
        var lines: [(String, String)] = [
            ("id", asset.id), ("type", asset.type), ("name", asset.name), ("description", asset.description),
        ]
        if let slug = asset.slug { lines.append(("slug", slug)) }
        if let language = asset.language { lines.append(("language", language)) }
        if let created = asset.raw["createdDate"]?["value"]?.stringValue { lines.append(("createdDate", created)) }
        if let updated = asset.raw["updatedDate"]?["value"]?.stringValue { lines.append(("updatedDate", updated)) }
        for (key, value) in (asset.fields ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append(("fields." + key, ItemColumns.text(of: value)))
        }
        return lines.map { (TerminalText.clean($0.0), TerminalText.clean($0.1)) }
    }

    /// A field value as one line: strings as they are, references by name and id, others as JSON.
    package static func text(of value: JSON) -> String {
        switch value {
        case .string(let text): return text
        case .null: return ""
        case .object(let members):
            if let id = members["id"]?.stringValue {
                let name = members["name"]?.stringValue ?? ""
                return name.isEmpty ? id : "\(name) (\(id))"
            }
            if let date = members["value"]?.stringValue, members["timezone"] != nil { return date }
            return JSONWriter().string(value)
        case .array(let elements):
            return "[" + elements.map { text(of: $0) }.joined(separator: ", ") + "]"
        default:
            return JSONWriter().string(value)
        }
    }
}

/// A document as key/value lines, the form table, expanded and csv give it.
///
/// An object's members come by key, sorted, a nested object's with dotted keys (`a.b`); an array's
/// elements by number from 1 (`failures.1.reason`); a value that is neither is one line named
/// `value`. Past four levels, or for an empty object or array, the rest is one line
/// (`ItemColumns.text`).
enum DocumentLines {
    static func of(_ value: JSON) -> [(String, String)] {
        var lines: [(String, String)] = []
        add(value, key: "", depth: 0, to: &lines)
        return lines.map { (TerminalText.clean($0.0), TerminalText.clean($0.1)) }
    }

    private static func add(_ value: JSON, key: String, depth: Int, to lines: inout [(String, String)]) {
        func child(_ name: String) -> String { key.isEmpty ? name : key + "." + name }
        switch value {
        case .object(let members) where !members.isEmpty && depth < 4:
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                add(member, key: child(name), depth: depth + 1, to: &lines)
            }
        case .array(let elements) where !elements.isEmpty && depth < 4:
            for (index, element) in elements.enumerated() {
                add(element, key: child(String(index + 1)), depth: depth + 1, to: &lines)
            }
        default:
            lines.append((key.isEmpty ? "value" : key, ItemColumns.text(of: value)))
        }
    }

    /// `lines` as aligned `key  value` text, each value cut to the room `width` leaves.
    static func text(_ lines: [(String, String)], width: Int) -> String {
        let nameWidth = lines.map { TerminalText.width(of: $0.0) }.max() ?? 0
        var out = ""
        for (name, value) in lines {
            let room = max(16, width - nameWidth - 2)
            out += TerminalText.pad(name, to: nameWidth) + "  " + TerminalText.truncate(value, to: room) + "\n"
        }
        return out
    }
}
