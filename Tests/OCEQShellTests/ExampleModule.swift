// The module of "Writing a module" in README.md: one command, `greet`, that
// shows the parts a module's command has (descriptor, arguments with spans, values resolved in
// the session, a result for the renderers). ModuleGuideTests registers it beside the core module.

import OCEQLanguage
import OCEQShell

/// `greet [NAME|$VAR|@n] [times N]`: says hello.
enum GreetCommand: Command {
    static let descriptor = CommandDescriptor(
        name: "greet", aliases: ["hi"], abstract: "say hello to someone (a guide's example)",
        usage: "greet [NAME|\"TEXT\"|$VAR] [times N]",
        examples: ["greet", "greet Ada", "greet $who times 2"])

    static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement else { throw .usage(descriptor.usage, span: nil) }
        var name = "world"
        var times = 1
        var arguments = command.arguments[...]
        if let first = arguments.first, first.kind != .word("times") {
            arguments = arguments.dropFirst()
            guard let text = try session.text(of: first) else { throw .usage("greet takes a name", span: first.span) }
            name = text
        }
        if let keyword = arguments.first {
            guard keyword.kind == .word("times"), arguments.count == 2, case .word(let count) = arguments.last?.kind,
                let number = Int(count), (1...10).contains(number)
            else { throw .usage("expected 'times N' with N from 1 to 10", span: keyword.span) }
            times = number
        }
        return .text(String(repeating: "hello, \(TerminalText.clean(name))\n", count: times))
    }
}

/// The example module: a name for `help` and its commands.
enum ExampleModule {
    static let module = Module(name: "example", commands: [GreetCommand.self])
}
