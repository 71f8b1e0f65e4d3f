import OCEQLanguage

/// `help`: the commands, or one command in full; all from the descriptors.
package enum HelpCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "help", abstract: "list the commands, or show one command's usage and examples",
        usage: "help [COMMAND]", examples: ["help", "help list"]
    ).taking(0...1).completing([.command]).sendingNothing(because: "it prints help")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement, let first = command.arguments.first else {
            return .text(overview(session.registry))
        }
        let name = SetCommand.word(first) ?? ""
        if let descriptor = session.registry.descriptor(named: name) {
            return .text(TerminalText.cleanKeepingLines(detail(descriptor)))
        }
        let names = session.registry.commands.map { $0.descriptor.name } + session.registry.user.commands.keys.sorted()
        throw .usage("no command '\(name)'" + SetCommand.suggestion(name, names), span: first.span)
    }

    /// Every command with its abstract, grouped by module.
    package static func overview(_ registry: CommandRegistry) -> String {
        let userCommands = registry.user.commands.values.sorted { $0.name < $1.name }
        /// A command's name and its aliases: `quit, exit`.
        func names(_ descriptor: CommandDescriptor) -> String {
            ([descriptor.name] + descriptor.aliases).joined(separator: ", ")
        }
        let width =
            (registry.commands.map { names($0.descriptor).count } + userCommands.map(\.name.count)).max() ?? 0
        var out = ""
        for module in registry.modules {
            out += "\(module.name) commands:\n"
            for command in module.commands {
                let descriptor = command.descriptor
                out += "  " + names(descriptor).padding(width) + "  " + descriptor.abstract + "\n"
            }
        }
        if !userCommands.isEmpty {
            out += "user commands:\n"
            for command in userCommands {
                out +=
                    "  " + command.name.padding(width) + "  " + TerminalText.clean(command.descriptor.abstract) + "\n"
            }
        }
        out += """

            Statements end at ';' or a line break; '#' starts a comment. Values are words, "strings",
            $variables, @n (row n of the last listing) and $1..$9 (a script's arguments).
            'help COMMAND' shows its usage and examples.

            """
        return out
    }

    /// Usage, abstract, discussion and examples of one command.
    package static func detail(_ descriptor: CommandDescriptor) -> String {
        var out = "usage: \(descriptor.usage)\n\n\(descriptor.abstract)\n"
        if !descriptor.aliases.isEmpty { out += "aliases: \(descriptor.aliases.joined(separator: ", "))\n" }
        if let discussion = descriptor.discussion { out += "\n" + discussion + "\n" }
        if !descriptor.examples.isEmpty {
            out += "\nexamples:\n" + descriptor.examples.map { "  " + $0 + "\n" }.joined()
        }
        return out
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
