// Commands are data. Each command is a type with a descriptor (name, aliases, abstract, usage,
// examples) and a `run`; a module lists command types; the registry is built once from the
// modules at start-up and refuses duplicate names. Help, the parser's vocabulary and the test
// that every example parses all come from the descriptors.

import OCEQLanguage

/// What a command says about itself.
package struct CommandDescriptor: Sendable {
    /// The command word.
    package var name: String
    /// Other words for it.
    package var aliases: [String]
    /// One line: what it does.
    package var abstract: String
    /// The synopsis (`get ID|@n|slug:SLUG [expand all|NAME,...]`).
    package var usage: String
    /// Statements that show it off; each must parse.
    package var examples: [String]
    /// More text for `help COMMAND`, if any.
    package var discussion: String?
    /// How many arguments the command takes, when that is fixed (checked by `oceq lint`); nil when
    /// it varies with what they are. Set with `taking(_:)`.
    package var argumentCount: ClosedRange<Int>?
    /// How Tab completes the arguments, in order (empty: only what the language knows). Set with
    /// `completing(_:)`.
    package var argumentCompletion: [ArgumentCompletion] = []
    /// What the command sends for a statement, for `explain` (see `CommandPlan`); nil: it cannot
    /// say, and `explain` refuses. Set with `planning(_:)` or `sendingNothing(because:)`.
    package var plan: CommandPlanner?
    /// Sends ahead the request the command will send first for a statement, before the channel's
    /// catalog is read (see `CommandAhead`); nil: nothing. Set with `sendingAhead(_:)`.
    package var sendAhead: CommandAhead?

    /// A descriptor with every part given.
    package init(
        name: String, aliases: [String] = [], abstract: String, usage: String, examples: [String],
        discussion: String? = nil
    ) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.usage = usage
        self.examples = examples
        self.discussion = discussion
    }
}

/// A shell command; its `run` is isolated to the main actor, as the session is (a conforming type is
/// inferred to be), and its descriptor is a plain value read from anywhere.
@MainActor
package protocol Command: SendableMetatype {
    /// Name, usage and examples.
    nonisolated static var descriptor: CommandDescriptor { get }
    /// Runs `statement` (whose command word names this command) in `session`.
    static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult
}

/// A named table of commands, contributed by a feature.
package struct Module: Sendable {
    /// What the module is called in help.
    package var name: String
    /// Its commands.
    package var commands: [any Command.Type]

    /// A module of `commands`.
    package init(name: String, commands: [any Command.Type]) {
        self.name = name
        self.commands = commands
    }
}

/// Two commands claimed the same word.
package struct DuplicateCommandError: Error, CustomStringConvertible {
    /// The word.
    package var name: String
    /// The modules that both claimed it.
    package var modules: [String]
    package var description: String {
        "command '\(name)' is defined twice (modules \(modules.joined(separator: ", ")))"
    }
}

/// Every command, by name and alias; built once.
package struct CommandRegistry: Sendable {
    /// The modules, in order.
    package let modules: [Module]
    let byName: [String: any Command.Type]
    /// The commands written in oceq (`define`, plugins) and the plugin files read; see
    /// `CommandRegistry+UserCommands.swift`.
    package internal(set) var user = UserCommands()

    /// The registry of `modules`; throws when two commands share a name or alias.
    package init(modules: [Module]) throws(DuplicateCommandError) {
        var byName: [String: any Command.Type] = [:]
        var owner: [String: String] = [:]
        for module in modules {
            for command in module.commands {
                for word in [command.descriptor.name] + command.descriptor.aliases {
                    if let previous = owner[word] {
                        throw DuplicateCommandError(name: word, modules: [previous, module.name])
                    }
                    owner[word] = module.name
                    byName[word] = command
                }
            }
        }
        self.modules = modules
        self.byName = byName
    }

    /// The standard registry: the core module.
    package static let standard: CommandRegistry = {
        do {
            return try CommandRegistry(modules: [CoreModule.module])
        } catch {
            fatalError("\(error)")
        }
    }()

    /// The descriptor of the command for `word` (a name or an alias).
    package func descriptor(named word: String) -> CommandDescriptor? {
        byName[word]?.descriptor ?? user.commands[word]?.descriptor
    }

    /// The command for `word` (a name or an alias).
    package func command(named word: String) -> (any Command.Type)? { byName[word] }

    /// Every command, in module order.
    package var commands: [any Command.Type] { modules.flatMap(\.commands) }

    /// Every word the parser should accept as a command.
    package var parserCommands: Set<String> { Set(byName.keys).union(user.commands.keys) }
}
