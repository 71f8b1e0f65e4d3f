import OCEQLanguage
import Testing

@Suite("Rendering diagnostics")
struct RenderingTests {
    func render(_ text: String, fileName: String? = "script.oceq") -> String {
        DiagnosticRenderer(fileName: fileName).render(allDiagnostics(text), in: SourceText(text))
    }

    @Test("a diagnostic shows the position, the line and a caret with a range under the span")
    func format() {
        let text = "list type=A\nlist type==OCEGettingStartedArticle"
        #expect(
            render(text) == """
                script.oceq:2:10: error: unknown operator '=='; did you mean '='?
                2 | list type==OCEGettingStartedArticle
                  |          ^~

                """)
        #expect(
            render(text, fileName: nil) == """
                error: unknown operator '=='; did you mean '='?
                2 | list type==OCEGettingStartedArticle
                  |          ^~

                """)
    }

    @Test("an insertion point gets a single caret just after the last token")
    func insertionPoint() {
        #expect(
            render("list type=") == """
                script.oceq:1:11: error: expected a value after '='
                1 | list type=
                  |           ^

                """)
    }

    @Test("notes follow their diagnostic")
    func notes() {
        #expect(
            render("list limit 5 name=x limit 6") == """
                script.oceq:1:21: error: 'limit' is given twice
                1 | list limit 5 name=x limit 6
                  |                     ^~~~~
                script.oceq:1:6: note: 'limit' is first given here
                1 | list limit 5 name=x limit 6
                  |      ^~~~~

                """)
    }

    @Test("columns count characters, tabs stay aligned, control characters are neutralised")
    func columns() {
        #expect(
            render("list\tname = 'Café' x == 1") == """
                script.oceq:1:22: error: unknown operator '=='; did you mean '='?
                1 | list\tname = 'Café' x == 1
                  |     \t                ^~

                """)
        let rendered = render("list a = \u{1B}[31m ==")
        #expect(!rendered.contains("\u{1B}"))
        #expect(rendered.contains("\u{FFFD}"))
    }

    @Test("colour is opt-in")
    func colours() {
        let text = "list a=="
        let plain = DiagnosticRenderer().render(allDiagnostics(text), in: SourceText(text))
        let coloured = DiagnosticRenderer(colors: true).render(allDiagnostics(text), in: SourceText(text))
        #expect(!plain.contains("\u{1B}["))
        #expect(coloured.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    static let goldenInputs = [
        "lsit type=Article",
        "type=OCEGettingStartedArticle",
        "list type=A ordr published_date desc",
        "list name eqq Coffee",
        "list a=1 && b=2",
        "list (type=A or (name=B",
        "list topic in (a b)",
        "list date > 2024-02-30",
        "list limit 0 offset -1",
        "count type=A order name",
        "list name = 'say \"hi\"'",
        "list id = @7 name = $nme and x = $4",
        "list order by name dsc",
        "let $x = 5",
        "explain let x = 1",
        "list name = \"unterminated\nlist type=A",
        "list a=1\n\nlist b=2 c\nlist d=4",
        "list type=Image where name co ridge",
        "list type=Image WHERE not name co ridge order name",
        "list where = 1",
        "select * from items",
        "list type=Image limit 3 | count",
        "count type=Image | grep ridge; list type=Image | ",
        "\\q",
        "\\d; \\?",
        "list type=OCEGettingStartedArticle fields name, author.name",
    ]

    @Test("rendered diagnostics for a set of bad inputs match the golden file")
    func golden() {
        var out = ""
        for input in RenderingTests.goldenInputs {
            out += "$ " + input.replacingOccurrences(of: "\n", with: "\n  ") + "\n"
            out += render(input)
            out += "\n"
        }
        expectGolden(out, named: "diagnostics.txt")
    }
}
