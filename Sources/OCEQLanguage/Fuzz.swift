// The parser's fuzz entry point, for a libFuzzer harness (`LLVMFuzzerTestOneInput` calls it with
// each input). It drives everything the language does with untrusted text, and checks the
// invariants that must hold for any input: spans lie inside the source, rendering works, and a
// statement that parsed prints to text that parses and compiles to the same query.

/// Parses, compiles, renders and round-trips arbitrary bytes; traps if an invariant breaks.
package func fuzzParse(_ bytes: UnsafeRawBufferPointer) {
    let source = SourceText(bytes: bytes)
    _ = Parser.inputState(of: source.text)
    let parsed = Parser.parse(source)
    let count = source.bytes.count
    for diagnostic in parsed.diagnostics {
        precondition(diagnostic.span.start >= 0 && diagnostic.span.end <= count, "span outside the source")
        for note in diagnostic.notes {
            precondition(note.span.start >= 0 && note.span.end <= count, "note span outside the source")
        }
    }
    _ = DiagnosticRenderer(fileName: "fuzz.oceq").render(parsed.diagnostics, in: parsed.source)
    let compiler = Compiler(environment: FuzzEnvironment())
    // A printed `define` is parsed alone: the commands its body calls may be defined beside it.
    var reparseOptions = ParserOptions(commands: nil)
    for case .define(let definition) in parsed.statements { reparseOptions.userCommands[definition.name] = definition }
    for statement in parsed.statements {
        precondition(statement.span.start >= 0 && statement.span.end <= count, "statement span outside the source")
        let printed = Printer.text(of: statement)
        let reparsed = Parser.parse(printed, options: reparseOptions)
        precondition(!reparsed.hasErrors && reparsed.statements.count == 1, "printed statement does not parse")
        guard case .select(let select) = statement, case .select(let again) = reparsed.statements[0] else { continue }
        let first = Result { () throws(DiagnosticError) in try compiler.compile(select) }
        let second = Result { () throws(DiagnosticError) in try compiler.compile(again) }
        switch (first, second) {
        case (.success(let a), .success(let b)):
            precondition(a == b, "printed statement compiles differently")
            _ = a.parameters()
        case (.failure, .failure): break
        default: preconditionFailure("printed statement compiles differently")
        }
    }
}

/// An environment where every reference resolves, so that compilation goes all the way.
struct FuzzEnvironment: CompileEnvironment {
    func variable(_ name: String) -> VariableLookup { .value("value of " + name) }
    func row(_ number: Int) -> RowLookup { number <= 50 ? .id("CORE\(number)") : .outOfRange(rows: 50) }
    func argument(_ number: Int) -> String? { "argument \(number)" }
    var argumentCount: Int { 9 }
    var variableNames: [String] { [] }
}
