import OCEQLanguage

/// `echo`: print words and values.
package enum EchoCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "echo", abstract: "print its arguments, variables and rows resolved",
        usage: "echo [WORD|\"TEXT\"|$VAR|$n|@n]...",
        examples: ["echo \"Articles:\" $n", "echo first row is @1", "echo $1"]
    ).sendingNothing(because: "it prints its arguments")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement else { return .text("\n") }
        var words: [String] = []
        let compiler = session.compiler
        for argument in command.arguments {
            switch argument.kind {
            case .word(let word), .symbol(let word): words.append(word)
            case .value(let value):
                do {
                    words.append(try compiler.resolve(value))
                } catch {
                    throw .diagnostics(error)
                }
            case .selection, .group:
                throw .usage("echo prints words and values, not statements", span: argument.span)
            }
        }
        return .text(TerminalText.cleanKeepingLines(words.joined(separator: " ")) + "\n")
    }
}

/// `quit`: end the session.
package enum QuitCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "quit", aliases: ["exit"], abstract: "leave oceq (Ctrl-D does the same); in a script, stop it",
        usage: "quit", examples: ["quit"]
    ).taking(0...0).sendingNothing(because: "it ends the session or script")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        if case .command(let command) = statement, let extra = command.arguments.first {
            throw .usage("quit takes no arguments", span: extra.span)
        }
        return .quit
    }
}
