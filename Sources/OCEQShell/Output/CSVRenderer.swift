// CSV (RFC 4180 quoting, CRLF line ends) with a header row. A listing is one row per item
// (`row,id,type,name,description`); a table is its columns and rows (no title or footer); an item
// and a document are `field,value` rows: the document's key/value lines (`DocumentLines`), the same
// keys the table view shows, never a one-row table. A screen is the data it shows; text and
// counts are written as they are.

import DeliveryKit
import OCEQCore

/// Comma-separated values (RFC 4180 quoting) with a header row.
package struct CSVRenderer: Renderer {
    /// A CSV renderer.
    package init() {}

    package func render(_ result: CommandResult, to sink: any OutputSink) {
        switch result {
        case .items(let listing):
            sink.write((["row"] + ItemColumns.names).joined(separator: ",") + "\r\n")
            for (index, asset) in listing.items.enumerated() {
                let cells = [String(index + 1)] + ItemColumns.values(asset)
                sink.write(CSVRenderer.row(cells))
            }
        case .item(let asset):
            CSVRenderer.fieldRows(ItemColumns.fieldLines(asset), to: sink)
        case .document(let value):
            CSVRenderer.fieldRows(DocumentLines.of(value), to: sink)
        case .table(let table):
            sink.write(CSVRenderer.row(table.columns.map(TerminalText.clean)))
            for row in table.rows { sink.write(CSVRenderer.row(row.map(TerminalText.clean))) }
        case .screen(_, let data):
            render(data, to: sink)
        default:
            TableRenderer().render(result, to: sink)
        }
    }

    /// `field,value` and one row per line.
    static func fieldRows(_ lines: [(String, String)], to sink: any OutputSink) {
        sink.write("field,value\r\n")
        for (name, value) in lines { sink.write(row([name, value])) }
    }

    /// One record: the cells quoted where needed, comma-separated, ending in CRLF.
    static func row(_ cells: [String]) -> String {
        cells.map(CSVRenderer.quote).joined(separator: ",") + "\r\n"
    }

    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences("\"", "\"\"") + "\""
    }
}
