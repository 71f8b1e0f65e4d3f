import TerminalMedia

/// What `set` changes.
public struct Settings: Sendable, Equatable {
    /// How results are shown.
    public var format: OutputFormat = .table
    /// Rows a `list` without `limit` asks for.
    public var limit: Int = 20
    /// Stop a script at the first failing statement.
    public var errexit = true
    /// After each statement, print its requests, bytes and milliseconds to stderr.
    public var timing = false
    /// Colour in error messages (`--color`; off for pipes, `TERM=dumb` and `NO_COLOR`).
    public var color = false
    /// The pager for output taller than the terminal (`$PAGER`, else `less -FRX`); nil is off.
    public var pager: String?
    /// How rich text (HTML) fields are shown: rendered (`text`) or as sent (`raw`).
    public var html = HTMLMode.text
    /// How images are drawn (`--images`, `set images`); nothing is drawn off a terminal.
    public var images = ImageMode.auto

    /// `set html`.
    public enum HTMLMode: String, Sendable, CaseIterable {
        case text, raw
    }

    /// The defaults.
    public init() {}

    /// `name value` lines, as `set` alone shows them.
    public var summary: String {
        """
        format   \(format.rawValue)
        limit    \(limit)
        errexit  \(errexit ? "on" : "off")
        timing   \(timing ? "on" : "off")
        pager    \(pager ?? "off")
        html     \(html.rawValue)
        images   \(images.rawValue)

        """
    }
}
