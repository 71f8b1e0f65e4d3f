import OCEQLanguage
import OCEQTestSupport
import Testing

/// One malformed input: `⟦` (and optionally `⟧`) mark the expected span of the first diagnostic.
struct ErrorCase: CustomTestStringConvertible, Sendable {
    var input: String
    var id: String
    var suggestion: String?

    init(_ input: String, _ id: String, suggests suggestion: String? = nil) {
        self.input = input
        self.id = id
        self.suggestion = suggestion
    }

    var testDescription: String { input }
}

let errorCases: [ErrorCase] = [
    // Operators
    ErrorCase("list type⟦==⟧Article", "unknownOperator", suggests: "="),
    ErrorCase("list type ⟦<>⟧ Article", "unknownOperator", suggests: "!="),
    ErrorCase("list date ⟦=>⟧ 2024-01-01", "unknownOperator", suggests: ">="),
    ErrorCase("list name ⟦~=⟧ coff*", "unknownOperator", suggests: "=~"),
    ErrorCase("list name ⟦eqq⟧ Coffee", "unknownOperator", suggests: "eq"),
    ErrorCase("list name ⟦like⟧ Coffee", "unknownOperator", suggests: "mt"),
    ErrorCase("list a=1 ⟦&&⟧ b=2", "unknownOperator", suggests: "and"),
    ErrorCase("list a=1 ⟦||⟧ b=2", "unknownOperator", suggests: "or"),
    ErrorCase("list ⟦!⟧(a=1)", "unknownOperator", suggests: "not"),
    ErrorCase("list type⟦", "expectedOperator"),
    ErrorCase("list type=A author.name⟦ Bob", "expectedOperator"),
    // Commands and clauses
    ErrorCase("⟦lsit⟧ type=Article", "unknownCommand", suggests: "list"),
    ErrorCase("⟦LIST⟧ type=Article", "unknownCommand", suggests: "list"),
    ErrorCase("⟦explian⟧ list", "unknownCommand", suggests: "explain"),
    ErrorCase("⟦type⟧=Article", "missingCommand"),
    ErrorCase("⟦\"list\"⟧", "expectedCommand"),
    ErrorCase("list type=A ⟦ordr⟧ name desc", "unknownClause", suggests: "order"),
    ErrorCase("list type=A ⟦limt⟧ 5", "unknownClause", suggests: "limit"),
    ErrorCase("list a=1 ⟦adn⟧ b=2", "unknownClause", suggests: "and"),
    ErrorCase("list limit 5 ⟦limit⟧ 6", "duplicateClause"),
    ErrorCase("count type=A ⟦limit⟧ 5", "clauseNotAllowed"),
    ErrorCase("count type=A ⟦order⟧ name", "clauseNotAllowed"),
    ErrorCase("first type=A ⟦limit⟧ 5", "clauseNotAllowed"),
    ErrorCase("list ⟦and⟧ type=A", "joinWithoutLeftOperand"),
    ErrorCase("list type=A or⟦", "expectedCondition"),
    ErrorCase("list type=A ⟦)⟧", "unexpected"),
    ErrorCase("list type=A ⟦,⟧ b=1", "expectedCondition"),
    // Values
    ErrorCase("list type=⟦", "expectedValue"),
    ErrorCase("list name =⟦ limit 5", "expectedValue"),
    ErrorCase("list name = ⟦asc⟧", "keywordAsValue"),
    ErrorCase("list name = ⟦\"⟧Coffee", "unterminatedString"),
    ErrorCase("list name = ⟦'⟧Coffee\nlist type=A", "unterminatedString"),
    ErrorCase("list date > ⟦2024-13-01⟧", "invalidDate"),
    ErrorCase("list date > ⟦2024-02-30⟧", "invalidDate"),
    ErrorCase("list date > ⟦2024-02-10T25:00⟧", "invalidDate"),
    ErrorCase("list date > ⟦2024-02-10T10:00:00.1234⟧", "invalidDate"),
    ErrorCase("list name = ⟦$⟧", "expectedVariableNameAfterDollar"),
    ErrorCase("list id = ⟦@⟧x", "expectedRowNumber"),
    ErrorCase("list id = ⟦@0⟧", "rowNumberInvalid"),
    ErrorCase("list id = ⟦@99999999999⟧", "rowNumberInvalid"),
    ErrorCase("list name = ⟦$12⟧", "argumentOutOfRange"),
    ErrorCase("list name = ⟦$0⟧", "argumentOutOfRange"),
    // Fields
    ErrorCase("list ⟦order⟧=5", "keywordAsField"),
    ErrorCase("list ⟦2x⟧ = 5", "invalidFieldName"),
    ErrorCase("list ⟦author..name⟧ = Bob", "invalidFieldName"),
    ErrorCase("list order by⟦", "expectedFieldName"),
    ErrorCase("list order by name,⟦ limit 5", "expectedFieldName"),
    ErrorCase("list order by name ⟦dsc⟧", "unknownSortDirection", suggests: "desc"),
    ErrorCase("list fields⟦", "expectedFieldName"),
    ErrorCase("list search⟦", "expectedValue"),
    // In-lists and parentheses
    ErrorCase("list topic in ⟦()⟧", "emptyInList"),
    ErrorCase("list topic in⟦ a", "expectedLeftParenAfterIn"),
    ErrorCase("list topic in (a,⟦ )", "expectedValue"),
    ErrorCase("list topic in (a ⟦b⟧)", "expectedCommaOrParenInList"),
    ErrorCase("list (type=A⟦", "expectedRightParen"),
    ErrorCase("list (a=1 ⟦limit⟧ 5)", "expectedRightParen"),
    // limit and offset
    ErrorCase("list limit ⟦0⟧", "limitOutOfRange"),
    ErrorCase("list limit ⟦501⟧", "limitOutOfRange"),
    ErrorCase("list limit ⟦99999999999999999999999⟧", "limitOutOfRange"),
    ErrorCase("list limit ⟦abc⟧", "integerExpected"),
    ErrorCase("list limit ⟦2.5⟧", "integerExpected"),
    ErrorCase("list offset ⟦-1⟧", "offsetOutOfRange"),
    ErrorCase("list limit⟦=⟧5", "keywordTakesNoOperator"),
    ErrorCase("list fields⟦=⟧all", "keywordTakesNoOperator"),
    // let and explain
    ErrorCase("let ⟦$x⟧ = 5", "letNameWithDollar"),
    ErrorCase("let x⟦ 5", "expectedEqualsAfterName"),
    ErrorCase("let x = a ⟦b c⟧", "expectedSingleValue"),
    ErrorCase("let ⟦2x⟧ = 5", "invalidVariableName"),
    ErrorCase("let⟦", "expectedVariableName"),
    ErrorCase("let x = ⟦lsit⟧ type=A", "unknownCommand", suggests: "list"),
    ErrorCase("explain⟦", "expectedStatementToExplain"),
    ErrorCase("explain ⟦let⟧ x = 5", "cannotExplain"),
    ErrorCase("explain ⟦explain⟧ list", "cannotExplain"),
    // Generic commands
    ErrorCase("get ⟦$0⟧", "argumentOutOfRange"),
    ErrorCase("get ⟦@0⟧", "rowNumberInvalid"),
    ErrorCase("echo ⟦\"⟧hello", "unterminatedString"),
    ErrorCase("list name = \"say ⟦\\\"⟧hi\\\"\"", "escapedQuote"),
    ErrorCase("list name = 'it⟦\\'⟧s' type=A", "escapedQuote"),
    ErrorCase("list name = \"a\\\" and⟦", "expectedCondition"),
    ErrorCase("echo (list type=Image rendition Thumbnail⟦", "expectedRightParen"),
    // Compiler: references and values
    ErrorCase("list name = ⟦$nme⟧", "unknownVariable", suggests: "$name"),
    ErrorCase("list id = ⟦@7⟧", "rowOutOfRange"),
    ErrorCase("list name = ⟦$3⟧", "argumentNotGiven"),
    ErrorCase("list name = ⟦'say \"hi\"'⟧", "valueContainsDoubleQuote"),
    ErrorCase("list name = ⟦$quoted⟧", "valueContainsDoubleQuote"),
    ErrorCase("list limit ⟦$big⟧", "limitOutOfRange"),
    ErrorCase("list topic in (a, ⟦$nothing⟧)", "unknownVariable"),
    ErrorCase("get ⟦@9⟧", "rowOutOfRange"),
    ErrorCase("get⟦", "expectedItem"),
    ErrorCase("get ⟦slug:⟧ expand all", "expectedSlug"),
    ErrorCase("list type=A search ⟦\"  \"⟧ limit 5", "emptySearch"),
    ErrorCase("count search ⟦''⟧", "emptySearch"),
    ErrorCase("define greet ⟦who how⟧\necho $who\nend", "parametersWithoutParentheses"),
    ErrorCase("define greet ⟦who⟧ = x\necho $who\nend", "unexpected"),
    ErrorCase("get @1 ⟦expnd⟧ all", "unknownOption", suggests: "expand"),
    ErrorCase("get @1 expand⟦", "expectedFieldName"),
    ErrorCase("get @1 expand author, ⟦2x⟧", "invalidFieldName"),
    ErrorCase("get @1 expand topic, ⟦author.avatar⟧", "pathInFieldList"),
    ErrorCase("list type=A fields name, ⟦author.name⟧", "pathInFieldList"),
    ErrorCase("list type=A expand ⟦fields.author.avatar⟧", "pathInFieldList"),
    ErrorCase("list type=A order name, ⟦author.name⟧ desc", "orderByPath"),
]

@Suite("Error positions")
struct ErrorPositionTests {
    @Test("every malformed statement reports its first problem at the marked position", arguments: errorCases)
    func position(_ errorCase: ErrorCase) throws {
        let marked = MarkedInput(errorCase.input)
        let diagnostics = allDiagnostics(marked.text)
        let first = try #require(diagnostics.first, "no diagnostic for \(errorCase.input)")
        #expect(first.message.id == errorCase.id, "\(first.text)")
        #expect(first.span.start == marked.start, "\(first.text) at \(first.span)")
        if let end = marked.end {
            #expect(first.span.end == end, "\(first.text) at \(first.span)")
        }
        if let suggestion = errorCase.suggestion {
            #expect(first.text.hasSuffix("did you mean '\(suggestion)'?"), "\(first.text)")
        }
        #expect(first.text == first.text.lowercased() || first.text.contains("'"), "messages are lower-case")
    }

    @Test("there are at least 40 error cases")
    func enoughCases() {
        #expect(errorCases.count >= 40)
    }

    @Test("@n with no listing yet names the problem")
    func noListing() throws {
        let marked = MarkedInput("list id = ⟦@2⟧")
        let diagnostics = allDiagnostics(marked.text, environment: StaticEnvironment())
        let first = try #require(diagnostics.first)
        #expect(first.message == .noListing(2))
        #expect(first.span == SourceSpan(start: marked.start, end: marked.end ?? 0))
        #expect(first.text == "'@2' refers to a row of the last listing, and there is none yet")
    }

    @Test("a statement with several problems reports each of them")
    func severalProblems() {
        let text = "list a==1 b<>2 date > 2024-13-01 limit 0 order by name dsc"
        let ids = allDiagnostics(text).map(\.message.id)
        #expect(
            ids == [
                "unknownOperator", "unknownOperator", "invalidDate", "limitOutOfRange", "unknownSortDirection",
            ])
    }

    @Test("the compiler reports every unresolved reference, each with its span")
    func severalReferences() {
        let marked = "list a = $x b = @9 c = $4"
        let diagnostics = allDiagnostics(marked)
        #expect(diagnostics.map(\.message.id) == ["unknownVariable", "rowOutOfRange", "argumentNotGiven"])
        #expect(diagnostics.map(\.span.start) == [9, 16, 23])
    }

    @Test("nesting deeper than the limit is a diagnostic at the first parenthesis too many")
    func nesting() throws {
        let deep = "list " + String(repeating: "(", count: 32) + "⟦(⟧" + String(repeating: "(", count: 100_000) + "a=1"
        let marked = MarkedInput(deep)
        let parsed = Parser.parse(marked.text, options: ParserOptions(maximumStatementBytes: 1_000_000))
        #expect(parsed.diagnostics.count == 1)
        let first = try #require(parsed.diagnostics.first)
        #expect(first.message == .nestingTooDeep(limit: 32))
        #expect(first.span.start == marked.start)
    }

    @Test("'not' chains count towards the nesting limit")
    func notChains() {
        let text = "list " + String(repeating: "not ", count: 5_000) + "a=1"
        let parsed = Parser.parse(text)
        #expect(parsed.diagnostics.map(\.message) == [.nestingTooDeep(limit: 32)])
    }

    @Test("statements nested through let and explain count towards the nesting limit")
    func nestedStatements() {
        let options = ParserOptions(bindableCommands: ["let", "explain"])
        let text = String(repeating: "let a = ", count: 5_000) + "1"
        #expect(Parser.parse(text, options: options).diagnostics.map(\.message) == [.nestingTooDeep(limit: 32)])
    }

    @Test("control characters in a message cannot reach the terminal")
    func controlCharacters() {
        let text = "list a=1 \u{1B}[2J"
        let rendered = DiagnosticRenderer().render(allDiagnostics(text), in: SourceText(text))
        #expect(!rendered.contains("\u{1B}"))
    }

    @Test("a byte order mark at the start of a script is skipped")
    func byteOrderMark() {
        let parsed = Parser.parse("\u{FEFF}list type=A\nlist type=B")
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.statements.count == 2)
    }

    @Test("a statement longer than the limit is one diagnostic, and the next statement still parses")
    func statementLength() {
        let long = "list " + String(repeating: "a=1 ", count: 20_000)
        let parsed = Parser.parse(long + "\nlist type=A")
        #expect(parsed.diagnostics.map(\.message.id) == ["statementTooLong"])
        #expect(parsed.diagnostics.first?.span == SourceSpan(start: 0, end: 4))
        #expect(parsed.statements.count == 1)
    }

    @Test("an unknown command is accepted when the vocabulary is open")
    func openVocabulary() {
        let parsed = Parser.parse("frobnicate --now", options: ParserOptions(commands: nil))
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.statements.first?.commandName == "frobnicate")
    }

    @Test("the shell's own commands extend the vocabulary, and suggestions come from it")
    func vocabulary() {
        let options = ParserOptions(commands: ParserOptions.coreCommands.union(["articles", "download"]))
        #expect(Parser.parse("articles @2", options: options).diagnostics.isEmpty)
        let diagnostics = Parser.parse("downlaod @3", options: options).diagnostics
        #expect(diagnostics.map(\.message) == [.unknownCommand("downlaod", suggestion: "download")])
    }
}
