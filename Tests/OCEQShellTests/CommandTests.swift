import OCEQLanguage
import Testing

@testable import OCEQShell

@MainActor
@Suite("Commands and help")
struct CommandTests {
    @Test("the standard registry has every core command, once")
    func registry() {
        let names = CommandRegistry.standard.commands.map { $0.descriptor.name }
        #expect(Set(names).count == names.count)
        for name in ["list", "count", "first", "get", "explain", "let", "echo", "set", "source", "help", "quit"] {
            #expect(CommandRegistry.standard.command(named: name) != nil, "\(name) is missing")
        }
        #expect(CommandRegistry.standard.command(named: "exit") != nil)
    }

    @Test("a word claimed twice fails loudly")
    func duplicates() {
        let twice = Module(name: "twice", commands: [EchoCommand.self])
        #expect(throws: DuplicateCommandError.self) {
            _ = try CommandRegistry(modules: [CoreModule.module, twice])
        }
    }

    @Test(
        "every example in every descriptor parses",
        arguments: CommandRegistry.standard.commands.flatMap { command in command.descriptor.examples })
    func examplesParse(example: String) {
        let parsed = Parser.parse(example, options: ParserOptions(commands: CommandRegistry.standard.parserCommands))
        #expect(parsed.diagnostics.isEmpty, "\(example): \(parsed.diagnostics)")
        #expect(parsed.statements.count == 1)
    }

    @Test("help and help COMMAND come from the descriptors")
    func helpGolden() async throws {
        let (session, output, _) = makeSession(connection: nil)
        var text = "$ help\n"
        _ = try await Interpreter.perform(Parser.parse("help").statements[0], in: session)
        text += output.text
        for command in CommandRegistry.standard.commands {
            output.clear()
            let name = command.descriptor.name
            _ = try await Interpreter.perform(Parser.parse("help \(name)").statements[0], in: session)
            text += "\n$ help \(name)\n" + output.text
        }
        expectGolden(text, named: "help.txt")
    }

    @Test("help for an unknown command suggests the closest")
    func helpUnknown() async {
        let result = await runScript("help lsit", connection: nil)
        #expect(result.code == 1)
        #expect(result.errors.contains("test.oceq:1:6: error: no command 'lsit'; did you mean 'list'?"))
        #expect(result.errors.contains("  |      ^~~~"))
    }
}
