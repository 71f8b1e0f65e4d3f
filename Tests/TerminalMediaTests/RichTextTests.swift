import Testing

@testable import TerminalMedia

@Suite("HTML as terminal text")
struct RichTextTests {
    static let plain = RichTextOptions(width: 80)
    static let styled = RichTextOptions(width: 80, styles: true, hyperlinks: false)
    static let linked = RichTextOptions(width: 80, styles: true, hyperlinks: true)

    @Test("paragraphs, headings and nested lists as blocks; entities decoded; scripts dropped")
    func blocks() {
        let html = """
            <!DOCTYPE html><p>One &amp; two&nbsp;&lt;three&gt; &#233;t&#xE9; &rsquo;</p><h2>Steps</h2>\
            <ol><li>First</li><li>Second<ul><li>inner</li></ul></li></ol><p>Line<br>break</p>\
            <script>alert(1)</script><style>p{}</style><p>End</p>
            """
        #expect(
            RichText.render(html, options: RichTextTests.plain) == """
                One & two\u{A0}<three> été ’

                STEPS

                1. First
                2. Second
                   ◦ inner

                Line
                break

                End

                """)
    }

    @Test("a list item's paragraphs keep its marker; a quote is barred; ordered lists honour start")
    func containers() {
        let html = """
            <ul><li><p>one</p></li><li><p>two</p><p>more</p></li></ul><blockquote><p>said</p><p>again</p></blockquote>\
            <ol start="7"><li>seven</li><li>eight</li></ol>
            """
        #expect(
            RichText.render(html, options: RichTextTests.plain)
                == "• one\n• two\n\n  more\n\n│ said\n│\n│ again\n\n7. seven\n8. eight\n")
    }

    @Test("the blank line inside a quote keeps the bars of the quotes that go on across it, and only those")
    func quoteBars() {
        let nested = "<blockquote><p>a</p><blockquote><p>b</p><p>c</p></blockquote><p>d</p></blockquote>"
        #expect(
            RichText.render(nested, options: RichTextTests.plain)
                == "│ a\n│\n│ │ b\n│ │\n│ │ c\n│\n│ d\n")
        let inItem = "<ul><li><p>x</p><blockquote><p>y</p><p>z</p></blockquote></li></ul><p>after</p>"
        #expect(
            RichText.render(inItem, options: RichTextTests.plain) == "• x\n\n  │ y\n  │\n  │ z\n\nafter\n")
        let listInQuote = "<blockquote><p>q</p><ul><li>one</li><li>two</li></ul></blockquote>"
        #expect(
            RichText.render(listInQuote, options: RichTextTests.plain) == "│ q\n│\n│ • one\n│ • two\n")
    }

    @Test("text wraps by display width, continuation lines under the first word, long words cut")
    func wrapping() {
        let options = RichTextOptions(width: 20)
        #expect(
            RichText.render("<ul><li>aaaa bbbb cccc dddd eeee ffff</li></ul>", options: options)
                == "• aaaa bbbb cccc\n  dddd eeee ffff\n")
        #expect(RichText.render("<p>喫茶店 珈琲 珈琲 珈琲 珈琲 珈琲</p>", options: options) == "喫茶店 珈琲 珈琲\n珈琲 珈琲 珈琲\n")
        #expect(
            RichText.render("<p>" + String(repeating: "x", count: 45) + "</p>", options: options)
                == String(repeating: "x", count: 20) + "\n" + String(repeating: "x", count: 20) + "\nxxxxx\n")
    }

    @Test("links are numbered footnotes without hyperlinks, OSC 8 with them; unsafe schemes are never links")
    func links() {
        let html = """
            <p>See <a href="https://x.example/a">the page</a>, <a href="javascript:alert(1)">this</a>, \
            <a href="data:text/html,x">that</a>, <a href="https://x.example/a">again</a> and \
            <a href="https://y.example/">https://y.example/</a>.</p>
            """
        #expect(
            RichText.render(html, options: RichTextTests.plain) == """
                See the page[1], this, that, again[1] and https://y.example/.

                [1] https://x.example/a
                [2] https://y.example/

                """)
        let linked = RichText.render(html, options: RichTextTests.linked)
        #expect(linked.contains("\u{1B}]8;;https://x.example/a\u{1B}\\the page\u{1B}]8;;\u{1B}\\"))
        #expect(!linked.contains("javascript") || !linked.contains("\u{1B}]8;;javascript"))
        #expect(!linked.contains("\u{1B}]8;;data:"))
        #expect(!linked.contains("[1]"))
    }

    @Test("bold, italic, underline, code and headings in SGR styles; plain text marks code with backticks")
    func styles() {
        let html = "<h1>Title</h1><p><b>bold</b> <i>it</i> <u>under</u> <code>x = 1</code></p>"
        #expect(
            RichText.render(html, options: RichTextTests.styled)
                == "\u{1B}[1;4mTitle\u{1B}[0m\n\n\u{1B}[1mbold\u{1B}[0m \u{1B}[3mit\u{1B}[0m \u{1B}[4munder\u{1B}[0m "
                + "\u{1B}[36mx = 1\u{1B}[0m\n")
        #expect(RichText.render(html, options: RichTextTests.plain) == "TITLE\n\nbold it under `x = 1`\n")
    }

    @Test("preformatted text keeps its lines, indented; images are [image: alt]; rules are lines")
    func preformattedAndImages() {
        let html = "<pre>let a = 1\n\tlet b = 2</pre><p><img src=x.jpg alt=\"A cup\"> and <img src=y.jpg></p><hr>"
        #expect(
            RichText.render(html, options: RichTextOptions(width: 30)) == """
                  let a = 1
                      let b = 2

                [image: A cup] and [image]

                ──────────────────────────────

                """)
    }

    @Test("a simple table is aligned, and shrunk with … when wider than the screen")
    func tables() {
        let html = """
            <table><tr><th>Drink</th><th>Milk</th></tr><tr><td>Flat white</td><td>whole</td></tr>\
            <tr><td>Cortado</td><td>a little <b>steamed</b></td></tr></table>
            """
        #expect(
            RichText.render(html, options: RichTextTests.plain) == """
                Drink       Milk
                Flat white  whole
                Cortado     a little steamed

                """)
        let narrow = RichText.render(html, options: RichTextOptions(width: 20))
        #expect(narrow.split(separator: "\n").allSatisfy { TerminalCells.width(of: $0) <= 20 })
        #expect(narrow.contains("…"))
    }

    @Test("escape sequences and control characters in text and attributes never pass through")
    func controls() {
        let html = """
            <p>a\u{1B}[31mred\u{1B}]0;title\u{07} \u{9B}2J b\u{7F}</p>\
            <a href="https://x.example/\u{1B}]8;;evil\u{1B}\\">l\u{1B}ink</a><img alt="\u{1B}[5mblink">
            """
        for options in [RichTextTests.plain, RichTextTests.styled, RichTextTests.linked] {
            let text = RichText.render(html, options: options)
            #expect(!withoutOwnSequences(text).unicodeScalars.contains { TerminalCells.isControl($0) && $0 != "\n" })
        }
        #expect(RichText.render(html, options: RichTextTests.plain).hasPrefix("a[31mred]0;title 2J b\n"))
    }

    @Test("input over the limit is cut with a note")
    func limit() {
        let html = "<p>" + String(repeating: "word ", count: 400) + "</p>"
        let text = RichText.render(html, options: RichTextOptions(width: 80, maxInputBytes: 1000))
        #expect(text.hasSuffix("[the text is 2007 bytes; only the first 1000 are shown]\n"))
        #expect(text.split(separator: " ").count < 300)
    }

    @Test("plain text for excerpts is one line")
    func plainLine() {
        #expect(RichText.plainLine("<p>One <b>two</b></p><ul><li>three</li></ul>") == "One two • three")
        #expect(RichText.wrap("aaa bbb ccc", width: 12, first: "  ", rest: "  ") == ["  aaa bbb", "  ccc"])
    }
}
