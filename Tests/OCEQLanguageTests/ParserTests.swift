import OCEQLanguage
import Testing

@Suite("Parser")
struct ParserTests {
    func statements(_ text: String) throws -> [Statement] {
        let parsed = Parser.parse(text)
        guard parsed.diagnostics.isEmpty else {
            throw TestFailure(DiagnosticRenderer().render(parsed.diagnostics, in: parsed.source))
        }
        return parsed.statements
    }

    @Test("';' and line breaks separate statements; blank lines and comments are skipped")
    func separators() throws {
        let text = """
            # a script
            list type=A; count type=B
               
            first type=C   # trailing comment
            ;;
            echo done
            """
        let names = try statements(text).map(\.commandName)
        #expect(names == ["list", "count", "first", "echo"])
    }

    @Test("'#' starts a comment only where a token could start")
    func comments() throws {
        let parsed = try statements("list name = a#b # comment (not a paren")
        #expect(parsed.count == 1)
        guard case .select(let select) = parsed[0] else { return fail("not a select") }
        #expect(select.conditions.count == 1)
        #expect(Printer.text(of: select) == "list name = a#b")
        #expect(try statements(##"list name = "# not a comment""##).count == 1)
    }

    @Test("line breaks inside parentheses continue the statement")
    func parenthesesSpanLines() throws {
        let parsed = try statements("list (type=A\n   or type=B\n) limit 5\ncount (a=1)")
        #expect(parsed.map(\.commandName) == ["list", "count"])
        guard case .select(let select) = parsed[0] else { return fail("not a select") }
        #expect(select.clauses.count == 2)
    }

    @Test("spans point at what was written")
    func spans() throws {
        let text = "list  type = \"A\"   order by name desc"
        guard case .select(let select) = try statements(text)[0] else { return fail("not a select") }
        let source = SourceText(text)
        #expect(source.text(in: select.span) == "list  type = \"A\"   order by name desc")
        #expect(source.text(in: select.verbSpan) == "list")
        #expect(source.text(in: select.clauses[0].span) == "type = \"A\"")
        #expect(source.text(in: select.clauses[1].span) == "order by name desc")
        #expect(source.text(in: select.clauses[1].keywordSpan) == "order")
        guard case .condition(let condition) = select.clauses[0].kind,
            case .comparison(let field, let op, let value) = condition.kind
        else { return fail("not a comparison") }
        #expect(source.text(in: field.span) == "type")
        #expect(op == .equal)
        #expect(source.text(in: value.span) == "\"A\"")
        #expect(value.kind == .string("A", .double))
    }

    @Test("values keep their kind")
    func valueKinds() throws {
        guard case .select(let select) = try statements("list a=x b='y' c=1.5 d=2024-01-02 e=$v f=$3 g=@4")[0]
        else { return fail("not a select") }
        let kinds = select.conditions.compactMap { condition -> Value.Kind? in
            if case .comparison(_, _, let value) = condition.kind { return value.kind }
            return nil
        }
        #expect(kinds.count == 7)
        #expect(kinds[0] == .bareword("x"))
        #expect(kinds[1] == .string("y", .single))
        #expect(kinds[2] == .number("1.5"))
        if case .date(let date) = kinds[3] { #expect(date.canonicalText == "2024-01-02") } else { Issue.record("date") }
        #expect(kinds[4] == .variable("v"))
        #expect(kinds[5] == .argument(3))
        #expect(kinds[6] == .row(4))
    }

    @Test("a string may end with a backslash when nothing touches its closing quote")
    func trailingBackslash() throws {
        guard case .select(let select) = try statements(#"list a="C:\" b in ('x\', y) c="d\";list"#)[0]
        else { return fail("not a select") }
        let values = select.conditions.compactMap { condition -> Value.Kind? in
            if case .comparison(_, _, let value) = condition.kind { return value.kind }
            return nil
        }
        #expect(values == [.string(#"C:\"#, .double), .string(#"d\"#, .double)])
    }

    @Test("a generic command's arguments keep another language's escapes: gql reads its text as written")
    func genericCommandEscapes() throws {
        let text = #"gql { item(slug: "p\"q\"r") { id } }"#
        let parsed = Parser.parse(text, options: ParserOptions(commands: nil))
        #expect(parsed.diagnostics.isEmpty)
        guard case .command(let command) = parsed.statements.first else { return fail("not a command") }
        #expect(command.name == "gql")
        #expect(command.argumentText == #"{ item(slug: "p\"q\"r") { id } }"#)
        #expect(Parser.inputState(of: text) == .complete)
    }

    @Test("keywords are matched in any case")
    func keywordCase() throws {
        guard case .select(let select) = try statements("list a=1 AND b=2 Order By name DESC LIMIT 3")[0]
        else { return fail("not a select") }
        #expect(select.clauses.count == 3)
        #expect(
            select.clauses[1].kind
                == .order([OrderKey(field: FieldPath("name"), direction: .desc)]).withSpans(of: select.clauses[1].kind))
    }

    @Test("let binds a value or a statement")
    func letStatements() throws {
        let parsed = try statements("let color = blue\nlet a = first type=Author name=Bob\nlet b = get @1\nlet c = $1")
        guard case .let(let first) = parsed[0], case .let(let second) = parsed[1], case .let(let third) = parsed[2],
            case .let(let fourth) = parsed[3]
        else { return fail("not lets") }
        #expect(first.name == "color")
        #expect(first.binding == .value(Value(.bareword("blue"), span: SourceSpan(start: 12, end: 16))))
        guard case .statement(.select(let select)) = second.binding else { return fail("not a select") }
        #expect(select.verb == .first)
        guard case .statement(.command(let command)) = third.binding else { return fail("not a command") }
        #expect(command.name == "get")
        guard case .value(let value) = fourth.binding else { return fail("not a value") }
        #expect(value.kind == .argument(1))
    }

    @Test("explain wraps a statement")
    func explain() throws {
        guard case .explain(let explain) = try statements("explain list type=A name ^= Coffee")[0],
            case .select(let select) = explain.statement
        else { return fail("not an explain") }
        #expect(select.conditions.count == 2)
        #expect(explain.span == SourceSpan(start: 0, end: 34))
    }

    @Test("other commands parse generically into words, values, symbols and groups")
    func genericCommands() throws {
        let options = ParserOptions(commands: nil)
        let text =
            "download (list type=Image limit 5) rendition Medium format jpg to ~/out --keep-going, @3 $name \"a b\" | x (y z)"
        let parsed = Parser.parse(text, options: options)
        #expect(parsed.diagnostics.isEmpty)
        guard case .command(let command) = parsed.statements.first else { return fail("not a command") }
        #expect(command.name == "download")
        let kinds = command.arguments.map(\.kind)
        guard case .selection(let select) = kinds[0] else { return fail("no selection") }
        #expect(select.verb == .list)
        #expect(Printer.text(of: select) == "list type = Image limit 5")
        #expect(Array(kinds[1...]).count == 14)
        #expect(kinds[1] == .word("rendition"))
        #expect(kinds[6] == .word("~/out"))
        #expect(kinds[7] == .word("--keep-going"))
        #expect(kinds[8] == .symbol(","))
        #expect(kinds[9] == .value(Value(.row(3), span: command.arguments[9].span)))
        #expect(kinds[10] == .value(Value(.variable("name"), span: command.arguments[10].span)))
        #expect(kinds[11] == .value(Value(.string("a b", .double), span: command.arguments[11].span)))
        #expect(kinds[12] == .symbol("|"))
        guard case .group(let group) = kinds[14] else { return fail("no group") }
        #expect(group.map(\.kind) == [.word("y"), .word("z")])
        #expect(command.argumentText.hasPrefix("(list type=Image limit 5) rendition"))
        #expect(SourceText(text).text(in: command.arguments[6].span) == "~/out")
    }

    @Test("~ standing alone is a word, the home folder; another operator alone stays a symbol")
    func loneTilde() {
        let parsed = Parser.parse("download @1 to ~ = ~~", options: ParserOptions(commands: nil))
        #expect(parsed.diagnostics.isEmpty)
        guard case .command(let command) = parsed.statements.first else { return fail("not a command") }
        #expect(
            command.arguments.map(\.kind) == [
                .value(Value(.row(1), span: command.arguments[0].span)), .word("to"), .word("~"), .symbol("="),
                .symbol("~~"),
            ])
    }

    @Test("core commands parse with the default vocabulary")
    func coreCommands() throws {
        let parsed = try statements("get slug:my-article\nset format json\necho hello world\nhelp list\nquit")
        #expect(parsed.map(\.commandName) == ["get", "set", "echo", "help", "quit"])
        guard case .command(let get) = parsed[0] else { return fail("not a command") }
        #expect(get.arguments.map(\.kind) == [.word("slug:my-article")])
        guard case .command(let echo) = parsed[2] else { return fail("not a command") }
        #expect(echo.argumentText == "hello world")
    }

    @Test(
        "continuation: input ending inside parentheses or a string is incomplete",
        arguments: [
            ("list type=A", InputState.complete),
            ("list (type=A", .insideParentheses(depth: 1)),
            ("list ((type=A) or (b=1", .insideParentheses(depth: 2)),
            ("list (type=A\nor type=B", .insideParentheses(depth: 1)),
            ("list (type=A\nor type=B)", .complete),
            ("list name = \"Caf", .insideString),
            ("list name = 'it", .insideString),
            ("list name = \"a\nb\"", .complete),
            ("list a=1 # (comment", .complete),
            ("list name = \"(\"", .complete),
            ("list name = \"a\\\"b\"", .complete),
            ("list name = \"C:\\\" or name = \"x", .insideString),
            ("list a=1)", .complete),
            ("list ) (", .insideParentheses(depth: 1)),
            ("", .complete),
        ])
    func continuation(_ text: String, _ state: InputState) {
        #expect(Parser.inputState(of: text) == state)
    }

    @Test("a line continued inside a string keeps its line break")
    func continuedString() throws {
        #expect(try compiled("list name = \"a\nb\"").q == "(name eq \"a\nb\")")
    }
}

extension Clause.Kind {
    /// `self` with the spans of `other` copied in, so that structure can be compared without positions.
    fileprivate func withSpans(of other: Clause.Kind) -> Clause.Kind {
        guard case .order(let keys) = self, case .order(let written) = other, keys.count == written.count else {
            return self
        }
        return .order(
            zip(keys, written).map { key, written in
                var key = key
                key.span = written.span
                key.field.span = written.field.span
                return key
            })
    }
}
