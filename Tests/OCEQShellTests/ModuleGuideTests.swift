import OCEQLanguage
import OCEQTestSupport
import Testing

@testable import OCEQShell

@MainActor
@Suite("Writing a module: the example of the README")
struct ModuleGuideTests {
    let registry = try! CommandRegistry(modules: [CoreModule.module, ExampleModule.module])

    @Test("the example module registers beside the core module; help and completion know its command")
    func registers() {
        #expect(registry.command(named: "greet") != nil)
        #expect(registry.command(named: "hi") != nil)
        #expect(registry.commandNames.contains("greet"))
        #expect(HelpCommand.overview(registry).contains("example commands:\n  greet, hi "))
    }

    @Test("its examples parse, and it runs with words, values and errors with a span")
    func runs() async throws {
        for example in GreetCommand.descriptor.examples {
            #expect(!Parser.parse(example, options: registry.parserOptions).hasErrors, "\(example)")
        }
        let output = MemoryOutput()
        let errors = MemoryOutput()
        let session = Session(registry: registry, connection: nil, output: output, errors: errors)
        let code = await ScriptRunner.run(
            text: "greet\nlet who = Ada\nhi $who times 2\ngreet x times 99", fileName: "g.oceq", in: session)
        #expect(output.text == "hello, world\nhello, Ada\nhello, Ada\n")
        #expect(code == 1)
        #expect(errors.text.hasPrefix("g.oceq:4:9: error: expected 'times N' with N from 1 to 10\n"))
    }

    @Test("the README quotes the example module as it is")
    func readmeQuotesIt() throws {
        let readme = try String(
            contentsOf: OceqBinary.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(
            contentsOf: OceqBinary.repositoryRoot.appendingPathComponent("Tests/OCEQShellTests/ExampleModule.swift"),
            encoding: .utf8)
        let code = source.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        #expect(readme.contains(code.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
