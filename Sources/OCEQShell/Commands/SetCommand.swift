import FoundationEssentials
import OCEQCore
import OCEQLanguage
import TerminalMedia

/// `set`: change a setting, or show them all.
package enum SetCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "set", abstract: "change how oceq shows results and runs scripts; alone, show the settings",
        usage:
            "set [format table|expanded|json|ndjson|csv | limit N | errexit on|off | timing on|off | pager on|off | color auto|always|never | html text|raw | images auto|never|symbols|sixel|kitty|iterm | csv-raw on|off]",
        examples: [
            "set format json", "set limit 50", "set errexit off", "set timing on", "set pager off", "set color never",
            "set html raw",
            "set images symbols", "set",
        ]
    ).completing([.setting]).sendingNothing(because: "it changes or shows a setting of this session")

    static let names = Settings.names

    /// The settings as data, each value as `set` takes it (`on`, `off`, a number).
    static func document(_ settings: Settings) -> JSON {
        [
            "format": .string(settings.format.rawValue), "limit": .int(settings.limit),
            "errexit": .string(settings.errexit ? "on" : "off"), "timing": .string(settings.timing ? "on" : "off"),
            "pager": .string(settings.pager ?? "off"), "color": .string(settings.color ? "on" : "off"),
            "html": .string(settings.html.rawValue),
            "images": .string(settings.images.rawValue), "csv-raw": .string(settings.csvRaw ? "on" : "off"),
        ]
    }

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement, let first = command.arguments.first else {
            return .screen(session.settings.summary, data: .document(document(session.settings)))
        }
        guard case .word(let name) = first.kind, names.contains(name) else {
            let text = word(first) ?? "?"
            throw .usage(
                unknown("setting", text, among: names, listed: "settings"),
                span: first.span)
        }
        guard command.arguments.count == 2 else {
            let span = command.arguments.count > 2 ? command.arguments[2].span : SourceSpan.at(first.span.end)
            throw .usage("set \(name) takes one value", span: span)
        }
        let argument = command.arguments[1]
        guard let value = try session.text(of: argument) else {
            throw .usage("set \(name) takes one value", span: argument.span)
        }
        switch name {
        case "format":
            guard let format = OutputFormat(rawValue: value) else {
                let formats = OutputFormat.allCases.map(\.rawValue)
                throw .usage(
                    unknown("format", value, among: formats, listed: "formats"), span: argument.span)
            }
            session.settings.format = format
        case "limit":
            guard let limit = Int(value), (1...500).contains(limit) else {
                throw .usage("limit must be a number from 1 to 500, not '\(value)'", span: argument.span)
            }
            session.settings.limit = limit
        case "html":
            guard let mode = Settings.HTMLMode(rawValue: value) else {
                throw .usage("set html takes text or raw, not '\(value)'", span: argument.span)
            }
            session.settings.html = mode
        case "color":
            let synonyms = ["on": "always", "off": "never"]
            guard let mode = CLIOptions.ColorMode(rawValue: synonyms[value] ?? value) else {
                let modes = CLIOptions.ColorMode.allCases.map(\.rawValue)
                throw .usage(
                    "set color takes auto, always or never, not '\(value)'" + suggestion(value, modes),
                    span: argument.span)
            }
            session.settings.color = mode.enabled(
                isTerminal: session.errors.isTerminal, environment: ProcessEnvironment.current())
        case "images":
            guard let mode = ImageMode(rawValue: value) else {
                let modes = ImageMode.allCases.map(\.rawValue)
                throw .usage(
                    unknown("image mode", value, among: modes, listed: "modes"), span: argument.span)
            }
            session.settings.images = mode
        default:
            let on: Bool
            switch value {
            case "on", "true", "yes", "1": on = true
            case "off", "false", "no", "0": on = false
            default: throw .usage("set \(name) takes on or off, not '\(value)'", span: argument.span)
            }
            switch name {
            case "errexit": session.settings.errexit = on
            case "timing": session.settings.timing = on
            case "csv-raw": session.settings.csvRaw = on
            default: session.settings.pager = on ? Pager.defaultCommand() : nil
            }
        }
        return .none
    }

    static func word(_ argument: CommandArgument) -> String? {
        switch argument.kind {
        case .word(let text), .symbol(let text): return text
        case .value(let value): return value.literalText
        default: return nil
        }
    }

    /// "unknown setting 'colour'; did you mean 'color'? (settings: format, ...)", or without a near
    /// miss "unknown setting 'x'; settings: format, ...".
    static func unknown(_ what: String, _ word: String, among candidates: [String], listed: String) -> String {
        let all = listed + ": " + candidates.joined(separator: ", ")
        if let near = Suggestions.closest(to: word, among: candidates) {
            return "unknown \(what) '\(word)'; did you mean '\(near)'? (\(all))"
        }
        return "unknown \(what) '\(word)'; \(all)"
    }

    static func suggestion(_ word: String, _ candidates: [String]) -> String {
        Suggestions.closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
