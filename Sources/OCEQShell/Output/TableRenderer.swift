// The table: a header, a rule, one numbered row per item, fitted to the sink's width. When the
// columns do not fit, the widest shrink first (never below 8 columns) and their cells end in `…`.
// Widths are display columns, so CJK titles align. A command's table comes the same way under its
// title and above its footer; a document is key/value lines; a screen is shown as it is.
// A column is at most `maximumColumnWidth` wide (longer cells end in `…`), also when the sink is
// not a terminal and has no width: one 1 MB name must not pad every other row to 1 MB.

import DeliveryKit
import OCEQCore

/// Aligned columns; rows numbered for `@n`.
package struct TableRenderer: Renderer {
    /// A table renderer.
    package init() {}

    /// The widest a column gets (its longer cells end in `…`).
    package static let maximumColumnWidth = 200

    package func render(_ result: CommandResult, to sink: any OutputSink) {
        switch result {
        case .none, .quit: return
        case .text(let text), .screen(let text, _): PlainText.write(text, to: sink)
        case .count(let count): sink.write("\(count)\n")
        case .item(let asset): ExpandedRenderer().render(.item(asset), to: sink)
        case .document(let value): sink.write(DocumentLines.text(DocumentLines.of(value), width: sink.width))
        case .table(let table): sink.write(TableRenderer.text(of: table, width: sink.width))
        case .items(let listing) where listing.items.isEmpty:
            sink.write(TableRenderer.footer(listing))
        case .items(let listing):
            let rows = listing.cells.enumerated().map { [String($0.offset + 1)] + $0.element }
            if sink.isTerminal && !TableRenderer.fits(rows, width: sink.width) {
                ExpandedRenderer().render(result, to: sink)
                return
            }
            sink.write(
                TableRenderer.table(
                    header: ["#"] + listing.columnNames.map(TerminalText.clean), rows: rows, width: sink.width,
                    shrinkOrder: TableRenderer.shrinkOrder(listing.columns),
                    evenly: listing.columns.filter { !$0.asked && TableRenderer.summary.contains($0.field) }.count))
            sink.write(TableRenderer.footer(listing))
        }
    }

    /// Whether item rows fit in `width` with the ids whole and the other columns at least 10 wide.
    static func fits(_ rows: [[String]], width: Int) -> Bool {
        let number = rows.map { TerminalText.width(of: $0[0]) }.max() ?? 1
        let id = rows.map { $0.count > 1 ? TerminalText.width(of: $0[1]) : 0 }.max() ?? 2
        let others = min(3, max(0, (rows.first?.count ?? 2) - 2))
        return number + id + others * 10 + (others + 1) * 2 <= width
    }

    /// The summary columns of a listing, in the order they give way.
    static let summary = ["description", "name", "type"]

    /// Which listing columns give way first: the summary's the query did not name (`description`,
    /// then `name`, then `type`), then the others, the last first, so the fields the query asked
    /// for keep their width longest; `#` and `id` come last (offsets count `#`).
    static func shrinkOrder(_ columns: [ListingColumn]) -> [Int] {
        let indexed = columns.enumerated().filter { $0.element.field != "id" }
        let first = TableRenderer.summary.compactMap { name in
            indexed.first { $0.element.field == name && !$0.element.asked }?.offset
        }
        let rest = indexed.map(\.offset).filter { !first.contains($0) }.reversed()
        return (first + rest).map { $0 + 1 }
    }

    /// A command's table: its title, the rows under their header (none when there are no rows),
    /// and its footer.
    static func text(of table: Table, width: Int) -> String {
        var out = TableRenderer.lines(table.title)
        if !table.rows.isEmpty {
            out += TableRenderer.table(
                header: table.columns.map(TerminalText.clean), rows: table.rows.map { $0.map(TerminalText.clean) },
                width: width, shrinkOrder: table.shrinkOrder)
        }
        return out + TableRenderer.lines(table.footer)
    }

    /// `text` cleaned, ending in a newline; nothing for nil.
    static func lines(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        let clean = TerminalText.cleanKeepingLines(text)
        return clean.hasSuffix("\n") ? clean : clean + "\n"
    }

    static func footer(_ listing: Listing) -> String {
        let count = listing.items.count
        let noun = count == 1 ? "row" : "rows"
        if let total = listing.totalResults, total > count { return "(\(count) \(noun) of \(total))\n" }
        if listing.hasMore { return "(\(count) \(noun), more available)\n" }
        return "(\(count) \(noun))\n"
    }

    /// `rows` under `header`, each column as wide as its widest cell, the whole at most `width`.
    ///
    /// Columns shrink in `shrinkOrder` (the last column first by default), each down to
    /// `minimum` columns, before any other column gives way; the first `evenly` of that order
    /// shrink together (the widest first) before the others.
    static func table(
        header: [String], rows: [[String]], width: Int, shrinkOrder: [Int]? = nil, evenly: Int = 0, minimum: Int = 10
    ) -> String {
        let columns = header.count
        var widths = header.map { TerminalText.width(of: $0) }
        for row in rows {
            for (index, cell) in row.enumerated() where index < columns {
                widths[index] = max(widths[index], TerminalText.width(of: cell))
            }
        }
        widths = widths.map { min($0, maximumColumnWidth) }
        let separator = 2
        let budget = max(columns * 4, width - separator * (columns - 1))
        let order = shrinkOrder ?? Array((0..<columns).reversed())
        for floor in [minimum, 4] {
            // The first `evenly` columns give way together, the widest first, so that none of
            // them is cut to the floor while another keeps its whole width.
            let group = Array(order.prefix(evenly))
            while widths.reduce(0, +) > budget,
                let widest = group.filter({ widths[$0] > floor }).max(by: { widths[$0] < widths[$1] })
            {
                widths[widest] -= 1
            }
            for index in order where widths.reduce(0, +) > budget && widths[index] > floor {
                let excess = widths.reduce(0, +) - budget
                widths[index] = max(floor, widths[index] - excess)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for index in 0..<columns {
                let cell = index < cells.count ? cells[index] : ""
                let fitted = TerminalText.truncate(cell, to: widths[index])
                parts.append(index == columns - 1 ? fitted : TerminalText.pad(fitted, to: widths[index]))
            }
            var text = parts.joined(separator: String(repeating: " ", count: separator))
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        var out = line(header)
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { out += line(row) }
        return out
    }
}
