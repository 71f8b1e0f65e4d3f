// The help a user asks for on the command line, as git and gh answer it: `oceq help`, `oceq help
// TOPIC` (a subcommand or any REPL command), and `oceq SUBCOMMAND --help`; and the one-line hints
// for a first word that is not a script (`oceq list type=Image` means `oceq -c '...'`).

import FoundationEssentials
import OCEQCore

/// Command-line help and the hints for mistyped invocations.
@MainActor
package enum CommandLineHelp {
    /// The subcommands `oceq` itself knows, with the usage each answers `--help` with. `serve` is
    /// answered by the executable (its command line is OCEQApp's), `lint` by the linter.
    static let subcommands: [String: String] = [
        "repl": "usage: oceq [OPTIONS] [repl]\n\nOpens the REPL on the channel (see 'oceq --help' for OPTIONS).",
        "run":
            "usage: oceq [OPTIONS] [run] FILE [ARGS...]\n\nRuns the statements of FILE ('-' is stdin); ARGS are $1..$9"
            + " in the script. It stops at the first failing statement unless --keep-going.",
        "mirror":
            "usage: oceq [OPTIONS] mirror DIR [--query STATEMENT]\n\nWrites the channel (or the items STATEMENT selects:"
            + " a list or first statement, or conditions) to DIR as an OCM export in the 2023 layout.",
    ]

    /// What `arguments` ask to be shown, when they ask for help: the text for stdout, or a usage
    /// error for a topic there is no help on. Nil when the arguments are not a request for help.
    package static func answer(
        _ arguments: [String], registry: CommandRegistry
    ) -> Result<String, UsageError>? {
        let asksHelp = { (word: String) in word == "--help" || word == "-h" }
        if arguments == ["help"] { return .success(CLIOptions.usage) }
        if arguments.count == 2, arguments[0] == "help" { return topic(arguments[1], registry: registry) }
        if arguments.count == 2, asksHelp(arguments[1]), let usage = subcommands[arguments[0]] {
            return .success(usage)
        }
        if arguments.count > 2, arguments[0] == "help" {
            return .failure(UsageError("help takes one topic; see 'oceq help'"))
        }
        return nil
    }

    /// The help on `name`: a subcommand's usage, else the REPL command's full help.
    static func topic(_ name: String, registry: CommandRegistry) -> Result<String, UsageError> {
        if let usage = subcommands[name] { return .success(usage) }
        if let descriptor = registry.descriptor(named: name) {
            return .success(TerminalText.cleanKeepingLines(HelpCommand.detail(descriptor)).trimmingNewlines)
        }
        let topics = Array(subcommands.keys) + ["serve", "lint"] + registry.commands.map { $0.descriptor.name }
        let hint = Suggestions.closest(to: name, among: topics).map { "; did you mean '\($0)'?" } ?? ""
        return .failure(UsageError("no help on '\(TerminalText.clean(name))'\(hint) (see 'oceq help')"))
    }

    /// Why the script `file` (at `path`) cannot be read, and, when its name is a command, the
    /// invocation that runs the statement the user probably meant.
    package static func unreadableScript(
        _ file: String, path: String, arguments: [String], registry: CommandRegistry
    ) -> UsageError {
        var isFolder = false
        let reason: String
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            reason = "no such file"
        } else if isFolder {
            reason = "it is a folder"
        } else {
            reason = "permission denied"
        }
        var message = "cannot read script \(TerminalText.clean(file)): \(reason)"
        if reason == "no such file", registry.descriptor(named: file) != nil {
            let statement = ([file] + arguments).joined(separator: " ")
            message += "; did you mean: oceq -c \(shellQuoted(statement))"
        } else if reason == "no such file", !file.contains("/"), !file.contains("."),
            let near = Suggestions.closest(to: file, among: Array(subcommands.keys) + ["serve", "lint"])
        {
            // A misspelt subcommand (`oceq servr`) reads as a script name.
            message += "; did you mean 'oceq \(near)'?"
        }
        return UsageError(message)
    }

    /// `text` in single quotes for a POSIX shell (a `'` inside becomes `'\''`).
    static func shellQuoted(_ text: String) -> String {
        "'" + TerminalText.clean(text).replacingAllBytes(of: "'", with: "'\\''") + "'"
    }
}

extension String {
    /// The string without trailing line breaks.
    fileprivate var trimmingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
