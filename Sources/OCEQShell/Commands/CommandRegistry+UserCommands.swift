// Commands written in oceq: `define` blocks from plugin files, scripts and the REPL. They join
// the registry beside the modules' commands (so the parser, `help` and completion know them), but
// never replace one: a name held by a module or defined in another file is refused, naming both
// places. A file may define its own command again (`source` of the same script twice, or a
// definition retyped in the REPL).

import OCEQLanguage

/// The user commands of a registry and the plugin files they came from.
package struct UserCommands: Sendable {
    /// The commands by name.
    package internal(set) var commands: [String: UserCommand] = [:]
    /// Every plugin file read at start, in loading order, loaded or skipped.
    package internal(set) var pluginFiles: [PluginFile] = []

    /// An empty table.
    package init() {}
}

/// A plugin file and what became of it.
package struct PluginFile: Sendable, Hashable {
    /// How the file was found.
    package enum Origin: String, Sendable, Hashable {
        /// In `$XDG_CONFIG_HOME/oceq/plugins/`.
        case directory = "plugins folder"
        /// Given with `--plugin`.
        case flag = "--plugin"
    }

    /// The path shown in messages.
    package var path: String
    /// How it was found.
    package var origin: Origin
    /// The commands it defined, in order; empty when it was skipped.
    package var commands: [String]
    /// Why it was skipped (the first problem), or nil when it was loaded.
    package var problem: String?
}

/// A command name already taken.
package struct CommandConflict: Error, Sendable {
    /// The diagnostic, at the name of the refused definition.
    package var diagnostic: Diagnostic
}

extension CommandRegistry {
    /// The user command named `word`, if any.
    package func userCommand(named word: String) -> UserCommand? { user.commands[word] }

    /// Every command word (names, aliases and user commands), sorted: what completion offers.
    package var commandNames: [String] { parserCommands.sorted() }

    /// Parser options knowing every command and the parameters of the user commands.
    package var parserOptions: ParserOptions {
        var options = ParserOptions(commands: parserCommands)
        options.userCommands = user.commands.mapValues(\.definition)
        return options
    }

    /// Where `name` is already defined, if `command` may not take it: a module's command, or a
    /// user command from another file.
    package func conflict(for command: UserCommand) -> CommandConflict? {
        let name = command.name
        let place: String
        if let module = modules.first(where: { module in
            module.commands.contains { ([$0.descriptor.name] + $0.descriptor.aliases).contains(name) }
        }) {
            place = "by the \(module.name) module"
        } else if let existing = user.commands[name], existing.fileName != command.fileName {
            place = "at " + existing.place
        } else {
            return nil
        }
        return CommandConflict(
            diagnostic: Diagnostic(.commandDefinedElsewhere(name, where: place), at: command.definition.nameSpan))
    }

    /// Adds `command`, or throws when its name is taken.
    package mutating func define(_ command: UserCommand) throws(CommandConflict) {
        if let conflict = conflict(for: command) { throw conflict }
        user.commands[command.name] = command
    }

    /// Records a plugin file read at start.
    mutating func record(_ file: PluginFile) { user.pluginFiles.append(file) }
}
