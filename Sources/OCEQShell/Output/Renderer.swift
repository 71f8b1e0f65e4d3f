// One renderer per output format. Each turns a `CommandResult` into text on a sink; server text is
// cleaned of control characters (`TerminalText.clean`) on the way. Item rows show the standard
// columns (`#`, `id`, `type`, `name`, `description`); JSON shows the items as the server sent them.

import DeliveryKit
import OCEQCore

/// Turns command results into text.
public protocol Renderer {
    /// Writes `result` to `sink`.
    func render(_ result: CommandResult, to sink: any OutputSink)
}

extension OutputFormat {
    /// The renderer for this format.
    public var renderer: any Renderer {
        switch self {
        case .table: return TableRenderer()
        case .expanded: return ExpandedRenderer()
        case .json: return JSONRenderer(lines: false)
        case .ndjson: return JSONRenderer(lines: true)
        case .csv: return CSVRenderer()
        }
    }
}

/// The standard columns of an item row.
enum ItemColumns {
    static let names = ["id", "type", "name", "description"]

    static func values(_ asset: Asset) -> [String] {
        [asset.id, asset.type, asset.name, asset.description].map(TerminalText.clean)
    }

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
    static func text(of value: JSON) -> String {
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
