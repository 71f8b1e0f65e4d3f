import TerminalMedia

/// What `set` changes.
package struct Settings: Sendable, Equatable {
    /// How results are shown.
    package var format: OutputFormat = .table
    /// Rows a `list` without `limit` asks for.
    package var limit: Int = 20
    /// Stop a script at the first failing statement.
    package var errexit = true
    /// After each statement, print its requests, bytes and milliseconds to stderr.
    package var timing = false
    /// Colour in error messages (`--color`, `set color`; off for pipes, `TERM=dumb` and `NO_COLOR`).
    package var color = false
    /// The pager for output taller than the terminal (`$PAGER`, else `less -FRX`); nil is off.
    package var pager: String?
    /// How rich text (HTML) fields are shown: rendered (`text`) or as sent (`raw`).
    package var html = HTMLMode.text
    /// How images are drawn (`--images`, `set images`); nothing is drawn off a terminal.
    package var images = ImageMode.auto
    /// CSV cells as they are, formulas not neutralised (`--csv-raw`, `set csv-raw on`).
    package var csvRaw = false

    /// `set html`.
    package enum HTMLMode: String, Sendable, CaseIterable {
        case text, raw
    }

    /// The defaults.
    package init() {}

    /// `name value` lines, as `set` alone shows them.
    package var summary: String {
        """
        format   \(format.rawValue)
        limit    \(limit)
        errexit  \(errexit ? "on" : "off")
        timing   \(timing ? "on" : "off")
        pager    \(pager ?? "off")
        color    \(color ? "on" : "off")
        html     \(html.rawValue)
        images   \(images.rawValue)
        csv-raw  \(csvRaw ? "on" : "off")

        """
    }
}
