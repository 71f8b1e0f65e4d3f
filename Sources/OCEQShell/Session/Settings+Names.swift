// The names `set` takes and the values each allows, read by `set` itself and by Tab completion, so that a
// setting added here is both accepted and offered.

import TerminalMedia

extension Settings {
    /// The settings `set` changes, in the order `set` alone lists them.
    package static let names = [
        "format", "limit", "errexit", "timing", "pager", "color", "html", "images", "csv-raw",
    ]

    /// The words `set NAME` accepts, in the order to offer them; nil when it takes a number (`limit`) or the
    /// name is not a setting. On/off settings also take true/false, yes/no and 1/0, which are not offered.
    package static func values(of name: String) -> [String]? {
        switch name {
        case "format": return OutputFormat.allCases.map(\.rawValue)
        case "html": return HTMLMode.allCases.map(\.rawValue)
        case "images": return ImageMode.allCases.map(\.rawValue)
        case "color": return CLIOptions.ColorMode.allCases.map(\.rawValue)
        case "errexit", "timing", "pager", "csv-raw": return ["on", "off"]
        default: return nil
        }
    }
}
