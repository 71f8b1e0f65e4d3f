// JSON and NDJSON. A listing is an array of the items as the server sent them (keys sorted), one
// item is its object, a count is a number. Pretty with two spaces on a terminal, compact
// otherwise; NDJSON is one compact value per line. JSON escapes C0 and DEL itself; C1 characters,
// which some terminals obey, are escaped here.

import DeliveryKit
import OCEQCore

/// JSON (`lines: false`) or NDJSON (`lines: true`).
public struct JSONRenderer: Renderer {
    /// One value per line instead of one document.
    public var lines: Bool

    /// A JSON or NDJSON renderer.
    public init(lines: Bool) {
        self.lines = lines
    }

    public func render(_ result: CommandResult, to sink: any OutputSink) {
        let writer = JSONWriter(indent: sink.isTerminal && !lines ? 2 : nil)
        switch result {
        case .none, .quit: return
        case .text(let text): sink.write(text.hasSuffix("\n") || text.isEmpty ? text : text + "\n")
        case .count(let count): sink.write("\(count)\n")
        case .item(let asset): sink.write(JSONRenderer.safe(writer.string(asset.json)) + "\n")
        case .items(let listing):
            if lines {
                for asset in listing.items { sink.write(JSONRenderer.safe(writer.string(asset.json)) + "\n") }
            } else {
                sink.write(JSONRenderer.safe(writer.string(.array(listing.items.map(\.json)))) + "\n")
            }
        }
    }

    /// C1 control characters (only ever inside strings) written as `\u00XX` escapes.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.value < 0xA0 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80 && scalar.value < 0xA0 {
                out += "\\u00" + String(scalar.value, radix: 16)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Comma-separated values (RFC 4180 quoting) with a header row.
public struct CSVRenderer: Renderer {
    /// A CSV renderer.
    public init() {}

    public func render(_ result: CommandResult, to sink: any OutputSink) {
        switch result {
        case .items(let listing):
            sink.write((["row"] + ItemColumns.names).joined(separator: ",") + "\r\n")
            for (index, asset) in listing.items.enumerated() {
                let cells = [String(index + 1)] + ItemColumns.values(asset)
                sink.write(cells.map(CSVRenderer.quote).joined(separator: ",") + "\r\n")
            }
        case .item(let asset):
            sink.write("field,value\r\n")
            for (name, value) in ItemColumns.fieldLines(asset) {
                sink.write(CSVRenderer.quote(name) + "," + CSVRenderer.quote(value) + "\r\n")
            }
        default:
            TableRenderer().render(result, to: sink)
        }
    }

    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences("\"", "\"\"") + "\""
    }
}

extension String {
    /// Every `target` replaced by `replacement`.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
