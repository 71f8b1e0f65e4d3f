import OCEQLanguage
import OCEQTestSupport
import Testing

@Suite("define blocks and calls of user commands")
struct DefineTests {
    static let example = """
        # Articles of a topic, by topic name
        # Newest first.
        define topic-articles(name, n = 10)
          let t = first type=OCEGettingStartedTopic name=$name
          list type=OCEGettingStartedArticle topic=$t order published_date desc limit $n
        end
        """

    /// The message and `LINE:COL` of each diagnostic of `text`.
    func problems(_ text: String, options: ParserOptions = ParserOptions()) -> [String] {
        let parsed = Parser.parse(text, options: options)
        return parsed.diagnostics.map { "\(parsed.source.location(of: $0.span.start)) \($0.text)" }
    }

    @Test("a define has its name, parameters with defaults, help from the comment above, and a parsed body")
    func definition() throws {
        let parsed = Parser.parse(DefineTests.example)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        guard case .define(let define) = try #require(parsed.statements.first) else {
            Issue.record("not a define")
            return
        }
        #expect(define.name == "topic-articles")
        #expect(define.parameters.map(\.name) == ["name", "n"])
        #expect(define.parameters[1].defaultValue?.literalText == "10")
        #expect(define.requiredCount == 1)
        #expect(define.help == ["Articles of a topic, by topic name", "Newest first."])
        #expect(define.body.map(\.commandName) == ["let", "list"])
        #expect(define.usage == "topic-articles name [n=10]")
        #expect(parsed.source.location(of: define.nameSpan.start) == SourceLocation(line: 3, column: 8))
    }

    @Test("a later call of the command parses and is checked; the printer's text parses to the same define")
    func callsAndPrinting() throws {
        let parsed = Parser.parse(DefineTests.example + "\ntopic-articles Coffee 5\ntopic-articles Coffee n=2")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        #expect(parsed.statements.map(\.commandName) == ["define", "topic-articles", "topic-articles"])
        let printed = Printer.text(of: parsed.statements[0])
        let again = Parser.parse(printed)
        #expect(again.diagnostics.isEmpty, "\(printed)")
        #expect(Printer.text(of: again.statements) == printed)
    }

    @Test("an unterminated define is reported at its 'define', with its body still checked")
    func unterminated() {
        #expect(
            problems("list type=A\ndefine greet(who)\n  echo $whom\n") == [
                "2:1 'define greet' has no 'end'",
                "3:8 '$whom' is neither a parameter of 'greet' nor set by a 'let' above; did you mean '$who'?",
            ])
        #expect(problems("end") == ["1:1 'end' without a 'define' to close"])
    }

    @Test("names in a body: parameters and lets above are known, others and script arguments are not")
    func bodyVariables() {
        let text = """
            define f(a)
              echo $b
              let b = $a
              echo $a $b $1
            end
            """
        #expect(
            problems(text) == [
                "2:8 '$b' is neither a parameter of 'f' nor set by a 'let' above; did you mean '$a'?",
                "4:14 '$1' is a script argument, which a 'define' body cannot use; declare a parameter",
            ])
    }

    @Test("headers: names, parameters, defaults and nesting")
    func headers() {
        #expect(problems("define list(a)\nend") == ["1:8 'list' is a word of the language and cannot be defined"])
        #expect(problems("define 2x\nend").first?.hasPrefix("1:8 '2x' is not a valid command name") == true)
        #expect(
            problems("define f(a = 1, b)\nend") == [
                "1:17 parameter 'b' needs a default, as a parameter before it has one"
            ])
        #expect(problems("define f(a, a)\nend") == ["1:13 parameter 'a' is declared twice"])
        #expect(
            problems("define f(a = $x)\nend") == ["1:14 the default of 'a' must be a literal value, not a reference"])
        #expect(problems("define f(a b)\nend") == ["1:12 expected ',' or ')' in the parameter list"])
        #expect(problems("define\n") == ["1:7 expected a command name after 'define'"])
        #expect(
            problems("define f\ndefine g\nend\nend") == [
                "2:1 'define' cannot appear inside another 'define'", "4:1 'end' without a 'define' to close",
            ])
        #expect(problems("define f()\nend\ndefine f()\nend") == ["3:8 'f' is defined twice"])
        #expect(problems("define f\n  echo hi\nend\nf").isEmpty)
    }

    @Test("calls with missing, extra, unknown, repeated or misplaced arguments are reported where they are")
    func arity() {
        let define = "define t(name, n = 10)\n  echo $name $n\nend\n"
        #expect(problems(define + "t") == ["4:2 't' needs a value for 'name' (usage: t name [n=10])"])
        #expect(problems(define + "t a 1 extra") == ["4:7 't' takes at most 2 arguments"])
        #expect(problems(define + "t a nn=1") == ["4:5 't' has no parameter 'nn'; did you mean 'n'?"])
        #expect(problems(define + "t name=a name=b") == ["4:10 'name' is given twice"])
        #expect(
            problems(define + "t name=a b") == ["4:10 a value without a name cannot follow a named one (NAME=VALUE)"])
        #expect(
            problems(define + "t (list type=A)") == [
                "4:3 't' takes values; bind a statement's result with 'let' and pass the variable",
                "4:16 't' needs a value for 'name' (usage: t name [n=10])",
            ])
        #expect(problems(define + "let x = 1\nt $x n=$x\nt name=\"a b\" n=@2\nt n=3 name=a").isEmpty)
    }

    @Test("a call binds values in order, by name, and from defaults, references kept as references")
    func binding() throws {
        let parsed = Parser.parse(
            DefineTests.example + "\ntopic-articles name=\"Cold brew\" n=$x\ntopic-articles Coffee")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        guard case .define(let define) = parsed.statements[0], case .command(let named) = parsed.statements[1],
            case .command(let ordered) = parsed.statements[2]
        else {
            Issue.record("unexpected statements")
            return
        }
        let byName = try define.bind(named).get()
        #expect(byName.map(\.name) == ["name", "n"])
        #expect(byName[0].value.kind == .string("Cold brew", .double))
        #expect(byName[1].value.kind == .variable("x"))
        #expect(parsed.source.text(in: byName[1].value.span) == "$x")
        let defaults = try define.bind(ordered).get()
        #expect(defaults.map { $0.value.literalText } == ["Coffee", "10"])
    }

    @Test("calls of user commands given in the options are checked too")
    func knownUserCommands() {
        let define = Parser.parse(DefineTests.example).statements[0]
        guard case .define(let definition) = define else {
            Issue.record("the example is not a define statement: \(define)")
            return
        }
        var options = ParserOptions(commands: ParserOptions.coreCommands.union(["topic-articles"]))
        options.userCommands = ["topic-articles": definition]
        #expect(
            problems("topic-articles a b c", options: options) == ["1:20 'topic-articles' takes at most 2 arguments"])
    }

    @Test(
        "the REPL reads on while a define is open",
        arguments: [
            ("define f(a)", InputState.insideDefine), ("define f(a)\n  echo $a", .insideDefine),
            ("define f(a)\n  echo $a\nend", .complete), ("echo end", .complete),
            ("define f(a,", .insideParentheses(depth: 1)),
        ])
    func continuation(text: String, state: InputState) {
        #expect(Parser.inputState(of: text) == state)
    }

    @Test("define blocks through the fuzz entry point: printed blocks parse alone, invariants hold")
    func fuzzed() {
        func run(_ text: String) {
            var bytes = Array(text.utf8)
            bytes.withUnsafeMutableBytes { buffer in fuzzParse(UnsafeRawBufferPointer(buffer)) }
        }
        run("define a()\n  b\nend\ndefine b()\n  a 1\nend\n")
        run("define a()\n  b\nend\ndefine b(\nend\n")
        run("# help \r\n#\ndefine f(x = \"a b\", y = 2)\n  let z = $x\n  echo $z $y\nend\nf 1 y=3\n")
        let fragments = [
            "define", "end", " ", " ", "\n", "\n", "f", "g", "(", ")", ",", "=", "$x", "x", "1", "'a b'", "#c\n",
            "echo", "list type=A", ";", "f x=", "@1", "$1", "let x = 2",
        ]
        var random = SeededGenerator(seed: 99)
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                text += fragments[Int.random(in: 0..<fragments.count, using: &random)]
            }
            run(text)
        }
    }
}
