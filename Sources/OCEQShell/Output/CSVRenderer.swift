// CSV (RFC 4180 quoting, CRLF line ends) with a header row. A listing is one row per item in the
// listing's columns (`ListingColumn`: the query's, `id,type,name,description` by default; no row
// number, line n is row n); a table is its plain columns and rows where it has them (`Table.plain`:
// whole values, not the screen's summaries), else its columns and rows (no title or footer); an item
// and a document are `field,value` rows: the document's key/value lines (`DocumentLines`), the same
// keys the table view shows, never a one-row table. A screen is the data it shows; a count is a
// `count` column of one row; text is written as it is.
//
// CSV injection (OWASP): a spreadsheet runs a cell that begins with `=`, `+`, `-`, `@`, a tab or a
// carriage return as a formula, so such a cell is written as `'` plus the text, quoted
// (`=HYPERLINK(...)` becomes `"'=HYPERLINK(...)"`). A cell that is a plain decimal number (`-3`,
// `+1.5`, `-2e3`) is left alone: a spreadsheet reads it as that number and nothing runs. With
// `--csv-raw` (`set csv-raw on`) every cell is written as it is.

import DeliveryKit
import OCEQCore

/// Comma-separated values (RFC 4180 quoting) with a header row.
package struct CSVRenderer: Renderer {
    /// Write cells as they are, without neutralising formulas (`--csv-raw`).
    package var raw: Bool

    /// A CSV renderer; `raw` writes formula-like cells as they are.
    package init(raw: Bool = false) {
        self.raw = raw
    }

    package func render(_ result: CommandResult, to sink: any OutputSink) {
        switch result {
        case .items(let listing):
            sink.write(row(listing.columnNames.map(TerminalText.clean)))
            for cells in listing.cells { sink.write(row(cells)) }
        case .item(let asset):
            fieldRows(ItemColumns.fieldLines(asset), to: sink)
        case .document(let value):
            fieldRows(DocumentLines.of(value), to: sink)
        case .table(let table):
            let columns = table.plain?.columns ?? table.columns
            sink.write(row(columns.map(TerminalText.clean)))
            for cells in table.plain?.rows ?? table.rows { sink.write(row(cells.map(TerminalText.clean))) }
        case .screen(_, let data):
            render(data, to: sink)
        case .count(let count):
            sink.write("count\r\n\(count)\r\n")
        default:
            TableRenderer().render(result, to: sink)
        }
    }

    /// `field,value` and one row per line.
    func fieldRows(_ lines: [(String, String)], to sink: any OutputSink) {
        sink.write("field,value\r\n")
        for (name, value) in lines { sink.write(row([name, value])) }
    }

    /// One record: the cells quoted where needed, comma-separated, ending in CRLF.
    func row(_ cells: [String]) -> String {
        cells.map { raw ? CSVRenderer.quote($0) : CSVRenderer.neutralised($0) }.joined(separator: ",") + "\r\n"
    }

    /// `cell` quoted where needed, and as `'` plus the text, quoted, when a spreadsheet would run it.
    static func neutralised(_ cell: String) -> String {
        guard let first = cell.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !isNumber(cell)
        else { return quote(cell) }
        return "\"'" + cell.replacingOccurrences("\"", "\"\"") + "\""
    }

    /// Whether `text` is a plain decimal number: a sign, digits, an optional fraction and exponent.
    static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// `cell` in double quotes (inner quotes doubled) when it holds a comma, a quote or a line break.
    static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences("\"", "\"\"") + "\""
    }
}
