// A simple HTML table as aligned columns: cells are plain text (white space collapsed), columns as
// wide as their widest cell, shrunk widest-first (cells cut with `…`) when the table is wider
// than the screen; header cells bold when styles are on.

/// The rows of one table, collected while the document is walked.
struct TextTable {
    var rows: [[String]] = []
    var headers: [[Bool]] = []
    var open = false

    mutating func startRow() {
        rows.append([])
        headers.append([])
        open = false
    }

    mutating func startCell(header: Bool) {
        if rows.isEmpty { startRow() }
        rows[rows.count - 1].append("")
        headers[headers.count - 1].append(header)
        open = true
    }

    /// Adds text to the open cell (text outside any cell is dropped).
    mutating func append(_ text: String) {
        guard open, !rows.isEmpty, !rows[rows.count - 1].isEmpty else { return }
        let row = rows.count - 1
        let cell = rows[row].count - 1
        // A cell holds at most a screen's worth: hostile cells do not grow without bound.
        if rows[row][cell].utf8.count < 4096 { rows[row][cell] += text }
    }

    /// The table as lines no wider than `width`.
    func lines(width: Int, styles: Bool) -> [String] {
        let cells = rows.map { $0.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } }
            .filter { !$0.allSatisfy(\.isEmpty) }
        let columns = cells.map(\.count).max() ?? 0
        guard columns > 0 else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TerminalCells.width(of: cell)) }
        }
        let available = max(width - 2 * (columns - 1), columns)
        while widths.reduce(0, +) > available, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[widest] > 3
        {
            widths[widest] -= 1
        }
        var out: [String] = []
        for (index, row) in rows.enumerated() {
            let texts = row.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            if texts.allSatisfy(\.isEmpty) { continue }
            var line = ""
            for column in 0..<columns {
                let text = column < texts.count ? TextTable.fit(texts[column], to: widths[column]) : ""
                let padded = text + String(repeating: " ", count: widths[column] - TerminalCells.width(of: text))
                let header = column < headers[index].count && headers[index][column]
                line += (column == 0 ? "" : "  ")
                line +=
                    styles && header && !text.isEmpty ? InlineStyle.bold.sequence + padded + InlineStyle.reset : padded
            }
            out.append(line.trimmingTrailingSpaces())
        }
        return out
    }

    /// `text` cut to `columns` display columns with `…`.
    static func fit(_ text: String, to columns: Int) -> String {
        if TerminalCells.width(of: text) <= columns { return text }
        var out = ""
        var used = 0
        for character in text {
            let cells = TerminalCells.width(of: character)
            if used + cells > columns - 1 { break }
            out.append(character)
            used += cells
        }
        return out + "…"
    }
}
