// What a command returns: data, never formatted for one output format. A listing, an item, a
// count, a table (rows with named columns), a document (a JSON value), text written by oceq, or a
// screen laid out for people with the data it shows. The renderers (`OutputFormat.renderer`)
// choose how each looks in table, expanded, json, ndjson and csv; no command reads the format.

import DeliveryKit
import OCEQCore

/// What a command produced; a renderer turns it into text.
package enum CommandResult: Sendable {
    /// Nothing to show.
    case none
    /// Text written by oceq itself (help, explain, echo); shown as it is in every format.
    case text(String)
    /// Rows of a listing (`list`, `first`), numbered for `@n`.
    case items(Listing)
    /// One item read whole (`get`).
    case item(Asset)
    /// A number of matches (`count`).
    case count(Int)
    /// Rows with named columns (`types`, `fields`, ...).
    case table(Table)
    /// One JSON-like value (a download's summary, a field's value): key/value lines for people,
    /// JSON for json and ndjson, `field,value` rows for csv.
    case document(JSON)
    /// A screen laid out for people (`show`, the blog) with the data it shows: table and expanded
    /// print the screen, json, ndjson and csv render the data.
    indirect case screen(String, data: CommandResult)
    /// The session should end.
    case quit
}

/// The rows of one listing and what the server said about the rest.
package struct Listing: Sendable {
    /// The items, in order; row n is `items[n - 1]`.
    package var items: [Asset]
    /// `totalResults`, when the server sent it.
    package var totalResults: Int?
    /// Whether more items follow.
    package var hasMore: Bool
    /// The columns table, csv and ndjson show (`ListingColumn`): the query's, or the standard ones.
    package var columns: [ListingColumn]

    /// A listing of `items` shown in `columns`.
    package init(
        items: [Asset], totalResults: Int? = nil, hasMore: Bool = false,
        columns: [ListingColumn] = ListingColumn.standard
    ) {
        self.items = items
        self.totalResults = totalResults
        self.hasMore = hasMore
        self.columns = columns
    }
}

/// The output formats of `set format` and `--format`.
package enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns fitted to the terminal, rows numbered for `@n`.
    case table
    /// One field per line, for one item or rows too wide for a table.
    case expanded
    /// JSON: pretty on a terminal, compact otherwise.
    case json
    /// One compact JSON value per line.
    case ndjson
    /// Comma-separated values with a header row.
    case csv
}
