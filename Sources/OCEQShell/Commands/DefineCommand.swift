import OCEQCore
import OCEQLanguage

/// `define`: add a command written in oceq to this session.
package enum DefineCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "define", abstract: "define a command of your own from statements, with parameters",
        usage: "define NAME(PARAM, PARAM = DEFAULT, ...) <statements> end",
        examples: ["define hello(who = world); echo hello $who; end"],
        discussion: """
            A block runs from 'define' to a line holding only 'end':

              # Articles of a topic, by topic name
              define topic-articles(name, n = 10)
                let t = first type=OCEGettingStartedTopic name=$name
                list type=OCEGettingStartedArticle topic=$t order published_date desc limit $n
              end

            The comment lines right above 'define' are its help. Call it with values in order
            (topic-articles Recipes 5) or by name after those (topic-articles Recipes n=5); a
            parameter with a default may be left out. In the body, $NAME is a parameter or a
            variable set by a 'let' above it; the caller's variables are not visible, and its own
            'let's end with the call. Calls nest at most 16 deep. A name that a built-in command or
            another file already holds is refused. Files in $XDG_CONFIG_HOME/oceq/plugins/*.oceq
            (~/.config/oceq/plugins) and --plugin FILE are read at start; 'plugins' lists them.
            """
    ).sendingNothing(because: "it defines a command; explain the statements it runs")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .define(let definition) = statement else {
            throw .usage("usage: \(descriptor.usage)", span: nil)
        }
        let origin = session.currentSource
        let command = UserCommand(
            definition: definition, source: origin?.text ?? SourceText(""), fileName: origin?.fileName)
        do {
            try session.registry.define(command)
        } catch {
            throw .diagnostics(DiagnosticError([error.diagnostic]))
        }
        return .none
    }
}

/// `plugins`: the plugin files read at start and the commands defined since.
package enum PluginsCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "plugins", abstract: "list the plugin files read at start, their commands, and commands defined since",
        usage: "plugins", examples: ["plugins"],
        discussion: """
            Plugins are .oceq files of 'define' blocks, read at start from
            $XDG_CONFIG_HOME/oceq/plugins/*.oceq (~/.config/oceq/plugins) in name order, then from
            each --plugin FILE in the order given. A file with any problem is reported and skipped
            whole. See 'help define'.
            """
    ).taking(0...0).sendingNothing(because: "it lists the plugin files and user commands")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        if case .command(let command) = statement, let extra = command.arguments.first {
            throw .usage("plugins takes no arguments", span: extra.span)
        }
        return .screen(report(session.registry), data: .document(document(session.registry)))
    }

    /// The same facts as data: `files` (`path`, `origin`, `commands`, and `problem` when skipped)
    /// and `defined` (`name`, `place`) for the commands defined outside plugin files.
    static func document(_ registry: CommandRegistry) -> JSON {
        let files = registry.user.pluginFiles.map { file -> JSON in
            var object: [String: JSON] = [
                "path": .string(file.path), "origin": .string(file.origin.rawValue),
                "commands": .array(file.commands.map { .string($0) }),
            ]
            if let problem = file.problem { object["problem"] = .string(problem) }
            return .object(object)
        }
        let fromPlugins = Set(registry.user.pluginFiles.flatMap(\.commands))
        let defined = registry.user.commands.values.filter { !fromPlugins.contains($0.name) }.sorted {
            $0.name < $1.name
        }
        return [
            "files": .array(files),
            "defined": .array(defined.map { ["name": .string($0.name), "place": .string($0.place)] }),
        ]
    }

    /// One line per plugin file, then the commands defined outside plugin files.
    package static func report(_ registry: CommandRegistry) -> String {
        let files = registry.user.pluginFiles
        var out = ""
        if files.isEmpty { out += "no plugin files\n" }
        for file in files {
            let status = file.problem.map { "skipped: " + $0 } ?? file.commands.joined(separator: ", ")
            out += "\(file.path) (\(file.origin.rawValue)): \(status)\n"
        }
        let fromPlugins = Set(files.flatMap(\.commands))
        let others = registry.user.commands.values.filter { !fromPlugins.contains($0.name) }.sorted {
            $0.name < $1.name
        }
        for command in others { out += "\(command.name) (defined at \(command.place))\n" }
        return TerminalText.cleanKeepingLines(out)
    }
}
