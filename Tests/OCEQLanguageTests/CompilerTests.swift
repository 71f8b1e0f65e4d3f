import OCEQCore
import OCEQLanguage
import Testing

@Suite("Compiler")
struct CompilerTests {
    @Test("the card's example compiles to the parameters issue 5 gives")
    func cardExample() throws {
        let query = try compiled(
            "list type=OCEGettingStartedArticle topic=@2 order published_date desc limit 50")
        #expect(query.q == #"(type eq "OCEGettingStartedArticle" AND fields.topic eq "CORE2")"#)
        #expect(query.orderBy == "fields.published_date:desc")
        #expect(query.limit == 50)
        #expect(query.offset == nil)
        #expect(query.kind == .list)
        #expect(query.userFields == ["topic", "published_date"])
    }

    static let operators: [(String, QueryOperator)] = [
        ("=", .equal), ("!=", .notEqual), ("~", .contains), ("^=", .startsWith), (">", .greaterThan),
        (">=", .greaterThanOrEqual), ("<", .lessThan), ("<=", .lessThanOrEqual), ("=~", .matches), ("~~", .similar),
    ]

    @Test("every operator symbol compiles to its API word", arguments: operators)
    func symbol(_ symbol: String, _ op: QueryOperator) throws {
        #expect(try compiled("list name \(symbol) x").q == "(name \(op.rawValue) \"x\")")
        #expect(try compiled("list name\(symbol)x").q == "(name \(op.rawValue) \"x\")")
    }

    @Test("every API word is accepted as an operator, in any case", arguments: QueryOperator.languageOrder)
    func word(_ op: QueryOperator) throws {
        #expect(try compiled("list name \(op.rawValue) x").q == "(name \(op.rawValue) \"x\")")
        #expect(try compiled("list name \(op.rawValue.uppercased()) x").q == "(name \(op.rawValue) \"x\")")
    }

    @Test(
        "precedence: 'and' binds tighter than 'or', and adjacent conditions are ANDed loosest of all",
        arguments: [
            ("list a=1 or b=2 and c=3", #"(fields.a eq "1" OR (fields.b eq "2" AND fields.c eq "3"))"#),
            ("list a=1 and b=2 or c=3", #"((fields.a eq "1" AND fields.b eq "2") OR fields.c eq "3")"#),
            ("list a=1 b=2 or c=3", #"(fields.a eq "1" AND (fields.b eq "2" OR fields.c eq "3"))"#),
            ("list (a=1 or b=2) and c=3", #"((fields.a eq "1" OR fields.b eq "2") AND fields.c eq "3")"#),
            ("list a=1 and (b=2 or c=3)", #"(fields.a eq "1" AND (fields.b eq "2" OR fields.c eq "3"))"#),
            ("list a=1 or b=2 or c=3", #"(fields.a eq "1" OR fields.b eq "2" OR fields.c eq "3")"#),
            ("list a=1 and b=2 and c=3", #"(fields.a eq "1" AND fields.b eq "2" AND fields.c eq "3")"#),
            ("list (a=1 and b=2) and c=3", #"(fields.a eq "1" AND fields.b eq "2" AND fields.c eq "3")"#),
            ("list not a=1 and b=2", #"(NOT (fields.a eq "1") AND fields.b eq "2")"#),
            ("list not (a=1 or b=2)", #"(NOT (fields.a eq "1" OR fields.b eq "2"))"#),
            ("list not not a=1", #"(NOT (NOT (fields.a eq "1")))"#),
            ("list (a=1 b=2 or c=3)", #"(fields.a eq "1" AND (fields.b eq "2" OR fields.c eq "3"))"#),
            ("list ((a=1))", #"(fields.a eq "1")"#),
            ("list NOT a=1 AND b=2 OR c=3", #"((NOT (fields.a eq "1") AND fields.b eq "2") OR fields.c eq "3")"#),
        ])
    func precedence(_ input: String, _ q: String) throws {
        #expect(try compiled(input).q == q)
    }

    @Test(
        "in-lists become parenthesised ORs of eq",
        arguments: [
            ("list topic in (a, b)", #"(fields.topic eq "a" OR fields.topic eq "b")"#),
            ("list topic in (a)", #"(fields.topic eq "a")"#),
            (
                "list type=A topic in (a,b,c)",
                #"(type eq "A" AND (fields.topic eq "a" OR fields.topic eq "b" OR fields.topic eq "c"))"#
            ),
            ("list topic not in (a, b)", #"(NOT (fields.topic eq "a" OR fields.topic eq "b"))"#),
            (
                "list topic IN ('x y', @1, $name)",
                #"(fields.topic eq "x y" OR fields.topic eq "CORE1" OR fields.topic eq "Coffee")"#
            ),
        ])
    func inLists(_ input: String, _ q: String) throws {
        #expect(try compiled(input).q == q)
    }

    @Test("adjacent conditions are ANDed, wherever the other clauses are")
    func implicitAnd() throws {
        let query = try compiled("list type=A limit 5 name=B order name slug ^= c")
        #expect(query.q == #"(type eq "A" AND name eq "B" AND slug sw "c")"#)
        #expect(query.limit == 5)
        #expect(query.orderBy == "name:asc")
    }

    @Test(
        "values: both quotes, barewords, numbers, references; every value quoted in q",
        arguments: [
            (#"list name = "Café au lait""#, #"(name eq "Café au lait")"#),
            ("list name = 'single'", #"(name eq "single")"#),
            ("list name = ''", #"(name eq "")"#),
            ("list price >= 1.5", #"(fields.price ge "1.5")"#),
            ("list count < -3", #"(fields.count lt "-3")"#),
            ("list id = CORE0123456789ABCDEF", #"(id eq "CORE0123456789ABCDEF")"#),
            ("list email = someone@example.com", #"(fields.email eq "someone@example.com")"#),
            ("list name =~ coff*", #"(name mt "coff*")"#),
            ("list name = $name", #"(name eq "Coffee")"#),
            ("list name = $1", #"(name eq "first-arg")"#),
            ("list id = @5", #"(id eq "CORE5")"#),
            ("list name = \"line one\nline two\"", "(name eq \"line one\nline two\")"),
        ])
    func values(_ input: String, _ q: String) throws {
        #expect(try compiled(input).q == q)
    }

    @Test(
        "ISO dates are checked and sent in calendar-year forms",
        arguments: [
            ("2024-03-26", "2024-03-26", "yyyy-MM-dd"),
            ("2024/03/26", "2024-03-26", "yyyy-MM-dd"),
            ("2024-02-29", "2024-02-29", "yyyy-MM-dd"),
            ("2024-03-26T18:32", "2024-03-26T18:32:00", "yyyy-MM-dd'T'HH:mm:ss"),
            ("2024-03-26T18:32:38", "2024-03-26T18:32:38", "yyyy-MM-dd'T'HH:mm:ss"),
            ("2024-03-26T18:32:38.5", "2024-03-26T18:32:38.500", "yyyy-MM-dd'T'HH:mm:ss.SSS"),
            ("2024-03-26T18:32:38.840Z", "2024-03-26T18:32:38.840+00:00", "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"),
            ("2024-03-26T18:32:38-05:30", "2024-03-26T18:32:38-05:30", "yyyy-MM-dd'T'HH:mm:ssxxx"),
            ("1970-02-10", "1970-02-10", "yyyy-MM-dd"),
        ])
    func dates(_ written: String, _ sent: String, _ pattern: String) throws {
        #expect(try compiled("list published_date > \(written)").q == "(fields.published_date gt \"\(sent)\")")
        guard case .success(let date) = DateLiteral.parse(written) else {
            Issue.record("\(written) did not parse")
            return
        }
        #expect(date.pattern == pattern)
        #expect(!date.pattern.contains("YYYY") && !date.pattern.contains("DD"))
    }

    @Test("quoted dates and date-like text are sent as written")
    func quotedDates() throws {
        #expect(try compiled("list d = '26/03/2024'").q == #"(fields.d eq "26/03/2024")"#)
        #expect(try compiled("list d = \"2024-3-26\"").q == #"(fields.d eq "2024-3-26")"#)
        #expect(try compiled("list d = 20240326").q == #"(fields.d eq "20240326")"#)
    }

    @Test(
        "standard fields stay, others become fields.<name>, dotted paths too",
        arguments: [
            "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
            "taxonomies", "fileExtension", "mimeType", "fileGroup",
        ])
    func standardFields(_ field: String) throws {
        #expect(try compiled("list \(field) = x").q == "(\(field) eq \"x\")")
        #expect(try compiled("list \(field) = x").userFields.isEmpty)
    }

    @Test("user fields and paths")
    func userFields() throws {
        #expect(try compiled("list author.name = Bob").q == #"(fields.author.name eq "Bob")"#)
        #expect(try compiled("list fields.topic = x").q == #"(fields.topic eq "x")"#)
        #expect(try compiled("list fields.topic = x").userFields.isEmpty)
        #expect(try compiled("list Name = x").q == #"(fields.Name eq "x")"#)
        #expect(try compiled("list image_16x9 = x").q == #"(fields.image_16x9 eq "x")"#)
        #expect(try compiled("list fields.limit = 5").q == #"(fields.limit eq "5")"#)
    }

    @Test("order, limit, offset, fields, expand and search")
    func clauses() throws {
        let query = try compiled(
            "list type=A order by name, published_date desc, createdDate asc limit 20 offset 40 fields name,author "
                + "expand author, image search 'coffee beans'")
        #expect(query.orderBy == "name:asc;fields.published_date:desc;createdDate:asc")
        #expect(query.limit == 20)
        #expect(query.offset == 40)
        #expect(query.fields == "name,fields.author")
        #expect(query.expand == "fields.author,fields.image")
        #expect(query.defaultText == "coffee beans")
        #expect(try compiled("list fields all expand ALL").fields == "all")
        #expect(try compiled("list fields all expand ALL").expand == "all")
        #expect(try compiled("list search coffee").q == nil)
        #expect(try compiled("list search coffee").defaultText == "coffee")
        #expect(try compiled("list search 'say \"hi\"'").defaultText == "say \"hi\"")
        #expect(try compiled("list limit $ten offset $ten").limit == 10)
        #expect(try compiled("list").parameters().isEmpty)
    }

    @Test("limit is checked from 1 to 500", arguments: [1, 2, 100, 499, 500])
    func limits(_ limit: Int) throws {
        #expect(try compiled("list limit \(limit)").limit == limit)
    }

    @Test("first sends limit=1; count sends limit=1 and totalResults")
    func firstAndCount() throws {
        let first = try compiled("first type=A offset 3")
        #expect(first.limit == 1)
        #expect(first.offset == 3)
        #expect(!first.totalResults)
        let count = try compiled("count type=A search x")
        #expect(count.limit == 1)
        #expect(count.totalResults)
        #expect(count.kind == .count)
        #expect(count.parameters().map(\.name) == ["default", "limit", "q", "totalResults"])
    }

    @Test("the SDK style matches Oracle's QueryBuilder rendering")
    func sdkStyle() throws {
        let cases = [
            ("list a=1", #"fields.a eq "1""#),
            ("list a=1 b=2", #"fields.a eq "1" and fields.b eq "2""#),
            ("list a=1 (b=2 or c=3)", #"fields.a eq "1" and (fields.b eq "2" or fields.c eq "3")"#),
            ("list a in (1,2,3) b=4", #"(fields.a eq "1" or fields.a eq "2" or fields.a eq "3") and fields.b eq "4""#),
            ("list not a=1", #"NOT (fields.a eq "1")"#),
        ]
        for (input, q) in cases {
            #expect(try compiled(input).q(style: .sdk) == q)
        }
    }

    @Test("a statement built in code is checked like a parsed one")
    func builtInCode() throws {
        let compiler = Compiler(environment: testEnvironment)
        let bad = SelectStatement(
            verb: .count,
            clauses: [
                Clause(.condition(Condition(.comparison(FieldPath("a b"), .equal, Value(.bareword("x")))))),
                Clause(.limit(Value(.number("5")))),
                Clause(.condition(Condition(.or([])))),
            ])
        #expect(throws: DiagnosticError.self) { try compiler.compile(bad) }
        do {
            _ = try compiler.compile(bad)
        } catch {
            #expect(
                error.diagnostics.map(\.message.id) == ["invalidFieldName", "clauseNotAllowed", "expectedCondition"])
        }
        let deep = (0..<2000).reduce(Condition(.comparison(FieldPath("a"), .equal, Value(.bareword("x"))))) {
            inner, _ in
            Condition(.not(inner))
        }
        #expect(throws: DiagnosticError.self) {
            try compiler.compile(SelectStatement(verb: .list, clauses: [Clause(.condition(deep))]))
        }
    }

    @Test("resolve gives commands and let the text of a value")
    func resolve() throws {
        let compiler = Compiler(environment: testEnvironment)
        #expect(try compiler.resolve(Value(.row(3))) == "CORE3")
        #expect(try compiler.resolve(Value(.argument(2))) == "second-arg")
        #expect(try compiler.resolve(Value(.date(try DateLiteral.parse("2024/01/02").get()))) == "2024-01-02")
        #expect(throws: DiagnosticError.self) { try compiler.resolve(Value(.variable("nope"))) }
    }

    @Test("a variable that holds no single value says what it holds")
    func notAValue() throws {
        struct Session: CompileEnvironment {
            func variable(_ name: String) -> VariableLookup { .notAValue("a listing of 5 rows") }
            func row(_ number: Int) -> RowLookup { .noListing }
            func argument(_ number: Int) -> String? { nil }
            var argumentCount: Int { 0 }
            var variableNames: [String] { ["articles"] }
        }
        let diagnostics = allDiagnostics("list id = $articles", environment: Session())
        #expect(diagnostics.map(\.text) == ["'$articles' holds a listing of 5 rows, not a value"])
        let none = allDiagnostics("list id = $1", environment: Session())
        #expect(none.map(\.text) == ["'$1' is a script argument, and none were given"])
    }
}
