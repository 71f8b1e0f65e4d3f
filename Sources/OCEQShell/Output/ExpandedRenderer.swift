// The expanded view: one field per line, an item's standard fields then its custom fields, a
// listing's or a table's rows each under a `-[ RECORD n ]-` rule (a listing whose query named its
// fields or order in the table's columns). Documents and screens look as
// they do in the table view.

import DeliveryKit
import OCEQCore

/// One field per line: `name  value`, items separated by a `-[ RECORD n ]-` rule.
package struct ExpandedRenderer: Renderer {
    /// An expanded renderer.
    package init() {}

    package func render(_ result: CommandResult, to sink: any OutputSink) {
        switch result {
        case .item(let asset):
            sink.write(ExpandedRenderer.block(asset, width: sink.width))
        case .items(let listing):
            // A listing the query shaped (`fields`, `order`) shows the table's columns, in its order,
            // as psql's \x does; otherwise each item whole.
            let shaped = listing.columns.contains(where: \.asked)
            for (index, asset) in listing.items.enumerated() {
                sink.write("-[ RECORD \(index + 1) ]-\n")
                if shaped {
                    let lines = listing.columns.map { column in
                        (
                            TerminalText.clean(column.name),
                            TerminalText.clean(column.value(in: asset).map(ItemColumns.text(of:)) ?? "")
                        )
                    }
                    sink.write(DocumentLines.text(lines, width: sink.width))
                } else {
                    sink.write(ExpandedRenderer.block(asset, width: sink.width))
                }
            }
            sink.write(TableRenderer.footer(listing))
        case .table(let table):
            sink.write(TableRenderer.lines(table.title))
            for (index, row) in table.rows.enumerated() {
                sink.write("-[ RECORD \(index + 1) ]-\n")
                let lines = table.columns.enumerated().map { column, name in
                    (TerminalText.clean(name), TerminalText.clean(column < row.count ? row[column] : ""))
                }
                sink.write(DocumentLines.text(lines, width: sink.width))
            }
            sink.write(TableRenderer.lines(table.footer))
        default:
            TableRenderer().render(result, to: sink)
        }
    }

    static func block(_ asset: Asset, width: Int) -> String {
        DocumentLines.text(ItemColumns.fieldLines(asset), width: width)
    }
}
