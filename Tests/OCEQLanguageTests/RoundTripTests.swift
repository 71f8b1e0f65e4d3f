import OCEQCore
import OCEQLanguage
import OCEQTestSupport
import Testing

/// Random select statements: every clause kind, every operator, every value kind, nested conditions.
struct StatementGenerator {
    var random: SeededGenerator

    static let fields = [
        "type", "name", "id", "slug", "createdDate", "topic", "published_date", "author.name", "fields.topic",
        "image_16x9", "a", "B",
    ]
    /// The fields a `fields`, `expand` or `order` list may name: one field each, no path into a reference.
    static let names = fields.filter { !FieldPath($0).isPath }
    static let barewords = ["Article", "OCEGettingStartedTopic", "coff*", "CORE123", "a-b", "x.y", "jpg", "é", "a#b"]
    static let strings = ["", "two words", "it's", "(parens)", "and", "limit", "Café", "#not a comment", "a;b"]
    static let numbers = ["0", "42", "-7", "3.14", "500"]
    static let dates = [
        "2024-03-26", "2024/03/26", "2024-03-26T18:32", "2024-03-26T18:32:38.5Z", "2000-02-29T00:00:00+05:30",
    ]

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func value() -> Value {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return Value(.bareword(pick(StatementGenerator.barewords)))
        case 1: return Value(.string(pick(StatementGenerator.strings), chance(50) ? .double : .single))
        case 2: return Value(.number(pick(StatementGenerator.numbers)))
        case 3:
            let text = pick(StatementGenerator.dates)
            guard case .success(let date) = DateLiteral.parse(text) else { fatalError(text) }
            return Value(.date(date))
        case 4: return Value(.variable(pick(["name", "topic", "ten"])))
        case 5: return Value(.argument(Int.random(in: 1...2, using: &random)))
        case 6: return Value(.row(Int.random(in: 1...5, using: &random)))
        default: return Value(.bareword(pick(["and", "limit", "12", "2024-01-01", "$x", "two words"])))
        }
    }

    mutating func condition(depth: Int) -> Condition {
        let choice = depth >= 4 ? Int.random(in: 0..<2, using: &random) : Int.random(in: 0..<7, using: &random)
        switch choice {
        case 0, 1:
            return Condition(
                .comparison(FieldPath(pick(StatementGenerator.fields)), pick(QueryOperator.languageOrder), value()))
        case 2:
            let values = (0..<Int.random(in: 1...3, using: &random)).map { _ in value() }
            return Condition(.membership(FieldPath(pick(StatementGenerator.fields)), values))
        case 3:
            return Condition(.and((0..<Int.random(in: 2...3, using: &random)).map { _ in condition(depth: depth + 1) }))
        case 4:
            return Condition(.or((0..<Int.random(in: 2...3, using: &random)).map { _ in condition(depth: depth + 1) }))
        case 5:
            return Condition(.not(condition(depth: depth + 1)))
        default:
            return Condition(.parenthesized(condition(depth: depth + 1)))
        }
    }

    mutating func fieldList() -> FieldList {
        chance(30)
            ? .all
            : .names(
                (0..<Int.random(in: 1...3, using: &random)).map { _ in FieldPath(pick(StatementGenerator.names)) })
    }

    mutating func select() -> SelectStatement {
        let verb = pick(SelectVerb.allCases)
        var clauses: [Clause] = []
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            clauses.append(Clause(.condition(condition(depth: 0))))
        }
        var optional: [Clause.Kind] = [.search(value())]
        if verb != .count {
            optional.append(.offset(Value(.number(String(Int.random(in: 0...1000, using: &random))))))
            optional.append(
                .order(
                    (0..<Int.random(in: 1...3, using: &random)).map { _ in
                        OrderKey(
                            field: FieldPath(pick(StatementGenerator.names)), direction: pick([nil, .asc, .desc]))
                    }))
            optional.append(.fields(fieldList()))
            optional.append(.expand(fieldList()))
        }
        if verb == .list { optional.append(.limit(Value(.number(String(Int.random(in: 1...500, using: &random)))))) }
        for kind in optional where chance(40) {
            clauses.insert(Clause(kind), at: Int.random(in: 0...clauses.count, using: &random))
        }
        return SelectStatement(verb: verb, clauses: clauses)
    }
}

@Suite("Printer round trip")
struct RoundTripTests {
    func compile(_ select: SelectStatement) -> Result<CompiledQuery, DiagnosticError> {
        Result { () throws(DiagnosticError) in try Compiler(environment: testEnvironment).compile(select) }
    }

    @Test("printing a random statement and parsing it again compiles to the same query", arguments: 0..<400)
    func roundTrip(seed: Int) throws {
        var generator = StatementGenerator(random: SeededGenerator(seed: UInt64(seed)))
        let original = generator.select()
        let printed = Printer.text(of: original)
        let parsed = Parser.parse(printed)
        #expect(parsed.diagnostics.isEmpty, "\(printed): \(parsed.diagnostics)")
        guard parsed.statements.count == 1, case .select(let again) = parsed.statements[0] else {
            return fail("\(printed) did not parse to one select statement")
        }
        let before = compile(original)
        let after = compile(again)
        switch (before, after) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(printed)")
        case (.failure(let a), .failure(let b)):
            #expect(a.diagnostics.map(\.message) == b.diagnostics.map(\.message), "\(printed)")
        default:
            Issue.record("\(printed): \(before) vs \(after)")
        }
        #expect(Printer.text(of: again) == printed, "printing is idempotent")
    }

    @Test("the printer writes canonical text")
    func canonical() throws {
        let parsed = Parser.parse(
            "list type=A topic=@2 name~~'x' (a=1 or b=2) and not c in (1,2) order published_date desc,name "
                + "LIMIT 50 fields all search \"hi there\"")
        #expect(
            Printer.text(of: parsed.statements)
                == "list type = A topic = @2 name ~~ 'x' (a = 1 or b = 2) and not c in (1, 2) "
                + "order by published_date desc, name limit 50 fields all search \"hi there\"")
        let script = Parser.parse("let x = 'a'\nexplain count type=A\nget @1 expand all\nlet y = first name=z")
        #expect(
            Printer.text(of: script.statements)
                == "let x = 'a'\nexplain count type = A\nget @1 expand all\nlet y = first name = z")
    }

    @Test("barewords that would read back as something else are quoted")
    func quotingBarewords() {
        let cases: [(String, String)] = [
            ("plain", "plain"), ("and", "\"and\""), ("12", "\"12\""), ("2024-01-01", "\"2024-01-01\""),
            ("two words", "\"two words\""), ("$x", "\"$x\""), ("#tag", "\"#tag\""), ("a=b", "\"a=b\""),
            ("say \"x\"", "'say \"x\"'"),
        ]
        for (text, printed) in cases {
            #expect(Printer.text(of: Value(.bareword(text))) == printed)
        }
    }
}
