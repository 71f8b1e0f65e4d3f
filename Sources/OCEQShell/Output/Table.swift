// A table a command returns: named columns, rows of display cells, and the records json and
// ndjson write. The cells are what people read (a field's one-line summary, sizes in KB); the
// records are the data behind them (the value itself, sizes as numbers), so a table may have one
// record per rendition but one row per rendition format. A title goes above the rows and a footer
// (counts, notes) below them in table and expanded; csv and JSON leave both out. Where the cells
// are cut or shaped for the screen (a field's summary, a tree's indent, "150 × 84"), the table also
// carries the plain cells csv writes instead (`plain`), so a spreadsheet never gets an ellipsis
// where the value was.

import OCEQCore

/// Rows with named columns, and the records behind them.
package struct Table: Sendable {
    /// The column names, the header of table and csv.
    package var columns: [String]
    /// The cells of each row, one per column (server text is cleaned by the renderers).
    package var rows: [[String]]
    /// What json and ndjson write, one value per record.
    package var records: [JSON]
    /// A line above the rows in table and expanded (the item the rows belong to).
    package var title: String?
    /// Lines below the rows in table and expanded (counts, notes, or why there are no rows).
    package var footer: String?
    /// Columns that give way first when the table is wider than the output (nil: the last first).
    package var shrinkOrder: [Int]?
    /// The columns and cells csv writes when the rows are shaped for people: whole values where a
    /// row has a summary, a tree's parent as a column instead of an indent, numbers without units.
    /// Nil: csv writes `columns` and `rows`.
    package var plain: Plain?

    /// Columns and cells as data, for csv (`Table.plain`).
    package struct Plain: Sendable {
        /// The header.
        package var columns: [String]
        /// One row per record, one cell per column.
        package var rows: [[String]]

        /// Plain `rows` under `columns`.
        package init(columns: [String], rows: [[String]]) {
            self.columns = columns
            self.rows = rows
        }
    }

    /// A table of `rows` under `columns`; `records` default to one object per row, keyed by column.
    package init(
        columns: [String], rows: [[String]], records: [JSON]? = nil, title: String? = nil, footer: String? = nil,
        shrinkOrder: [Int]? = nil, plain: Plain? = nil
    ) {
        self.columns = columns
        self.rows = rows
        self.records =
            records
            ?? rows.map { row in
                var object: [String: JSON] = [:]
                for (index, name) in columns.enumerated() {
                    object[name] = .string(index < row.count ? row[index] : "")
                }
                return .object(object)
            }
        self.title = title
        self.footer = footer
        self.shrinkOrder = shrinkOrder
        self.plain = plain
    }
}
