// The diagnostics of marked test inputs (`MarkedInput`, in OCEQTestSupport, reads the markers).

import OCEQLanguage
import OCEQTestSupport
import Testing

/// The diagnostics of parsing `text`, then (if it parsed) of compiling its select statements.
func allDiagnostics(
    _ text: String, options: ParserOptions = ParserOptions(), environment: any CompileEnvironment = testEnvironment
) -> [Diagnostic] {
    let parsed = Parser.parse(text, options: options)
    if !parsed.diagnostics.isEmpty { return parsed.diagnostics }
    var diagnostics: [Diagnostic] = []
    let compiler = Compiler(environment: environment)
    for statement in parsed.statements {
        var selects: [SelectStatement] = []
        switch statement {
        case .select(let select): selects.append(select)
        case .explain(let explain): if case .select(let select) = explain.statement { selects.append(select) }
        case .let(let binding): if case .statement(.select(let select)) = binding.binding { selects.append(select) }
        case .command(let command) where command.name == "get":
            do { _ = try compiler.compileGet(command) } catch { diagnostics += error.diagnostics }
        case .command(let command):
            for argument in command.arguments {
                if case .value(let value) = argument.kind {
                    do { _ = try compiler.resolve(value) } catch { diagnostics += error.diagnostics }
                }
            }
        case .define: break
        }
        for select in selects {
            do { _ = try compiler.compile(select) } catch { diagnostics += error.diagnostics }
        }
    }
    return diagnostics
}

/// Rows, variables and arguments the tests refer to.
let testEnvironment = StaticEnvironment(
    variables: ["name": "Coffee", "topic": "CORE0TOPIC", "big": "900", "quoted": "say \"hi\"", "ten": "10"],
    rows: ["CORE1", "CORE2", "CORE3", "CORE4", "CORE5"],
    arguments: ["first-arg", "second-arg"])

/// Compiles the single select statement in `text`, failing the test on any diagnostic.
func compiled(_ text: String, environment: any CompileEnvironment = testEnvironment) throws -> CompiledQuery {
    let parsed = Parser.parse(text)
    guard parsed.diagnostics.isEmpty, parsed.statements.count == 1, case .select(let select) = parsed.statements[0]
    else {
        throw TestFailure(
            "expected one select statement in \(text): "
                + DiagnosticRenderer().render(parsed.diagnostics, in: parsed.source))
    }
    return try Compiler(environment: environment).compile(select)
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Records an issue; `return fail("...")` leaves a test early.
func fail(_ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
}
