// Malformed and hostile HTML: each input is rendered within bounded time and memory (the test
// finishing is the check; no wall-clock assertions) and nothing but our own SGR and OSC 8
// sequences reaches the output. The plain renderings are pinned in Golden/hostile.txt.

import Testing

@testable import TerminalMedia

@Suite("Hostile HTML")
struct HostileHTMLTests {
    /// Name and input of each hostile document.
    static let inputs: [(String, String)] = [
        ("unclosed tags", "<p>one <b>bold <i>both <ul><li>item <table><tr><td>cell"),
        ("stray end tags", "</div></p>text</b></li> more</table></html>"),
        (
            "100000 nested divs",
            String(repeating: "<div>", count: 100_000) + "deep" + String(repeating: "</div>", count: 100_000)
        ),
        ("100000 unclosed divs", String(repeating: "<div>x", count: 100_000)),
        ("20000 nested lists", String(repeating: "<ul><li>", count: 20_000) + "deep"),
        ("20000 nested quotes", String(repeating: "<blockquote>q", count: 20_000)),
        ("20000 nested tables", String(repeating: "<table><tr><td>", count: 20_000) + "cell"),
        (
            "escape sequences in text",
            "<p>\u{1B}[2J\u{1B}[H\u{1B}]0;pwned\u{07}\u{1B}P+q\u{1B}\\text\u{9B}31m\u{0}\u{8}</p>"
        ),
        (
            "escape sequences in attributes",
            "<a href=\"https://a.example/\u{1B}[31m\u{1B}]8;;x\u{1B}\\\">l</a><img alt=\"\u{1B}]52;c;AAAA\u{07}\">"
        ),
        (
            "javascript links",
            "<a href=\"javascript:alert(1)\">one</a> <a href=\" JaVaScRiPt:x\">two</a> <a href=\"vbscript:x\">3</a>"
        ),
        ("entities", "<p>&lt;script&gt; &#27;[31m &#x1B;]0;t&#7; &#0; &#xD800; &bogus; &amp;amp;</p>"),
        ("comments and processing instructions", "<!-- <p>hidden</p> --><?php echo 1; ?><![CDATA[x]]><p>shown</p>"),
        (
            "script and style variants",
            "<SCRIPT>a()</SCRIPT><style>b{}</style><noscript>n</noscript><svg><text>s</text></svg>ok"
        ),
        ("huge attribute", "<p title=\"" + String(repeating: "a", count: 1_000_000) + "\">short</p>"),
        ("long word", "<p>" + String(repeating: "ab", count: 5_000) + "</p>"),
        ("binary garbage", String(decoding: (0..<4096).map { UInt8(($0 * 73 + 11) % 256) }, as: UTF8.self)),
        ("huge table", "<table>" + String(repeating: "<tr><td>a</td><td>b</td></tr>", count: 20_000) + "</table>"),
    ]

    @Test("every hostile input renders, with no escape byte but our styles", arguments: 0..<inputs.count)
    func rendersSafely(index: Int) {
        let (_, html) = HostileHTMLTests.inputs[index]
        for options in [
            RichTextOptions(width: 80), RichTextOptions(width: 80, styles: true),
            RichTextOptions(width: 80, styles: true, hyperlinks: true),
        ] {
            let text = RichText.render(html, options: options)
            let bare = withoutOwnSequences(text)
            #expect(!bare.unicodeScalars.contains { TerminalCells.isControl($0) && $0 != "\n" })
            if !options.styles { #expect(!text.contains("\u{1B}")) }
            #expect(
                text.split(separator: "\n").allSatisfy {
                    TerminalCells.width(of: withoutOwnSequences(String($0))) <= 80
                })
        }
    }

    @Test("100 000 nested divs: what comes before the limit is shown, then a note")
    func deepNesting() {
        let html =
            "<p>before</p>" + String(repeating: "<div>", count: 100_000) + "deep"
            + String(repeating: "</div>", count: 100_000)
            + "<p>after</p>"
        let text = RichText.render(html, options: RichTextOptions(width: 80))
        #expect(text.hasPrefix("before\n"))
        #expect(text.hasSuffix("\n[the HTML nests elements too deeply; the rest of it is not shown]\n"))
        #expect(!text.contains("after"))
    }

    @Test("a 10 MB body is cut at the limit with a note")
    func tenMegabytes() {
        let paragraph = "<p>" + String(repeating: "coffee <b>crema</b> &amp; milk ", count: 30) + "</p>\n"
        let html = String(repeating: paragraph, count: (10 << 20) / paragraph.utf8.count + 1)
        #expect(html.utf8.count > 10 << 20)
        let text = RichText.render(html, options: RichTextOptions(width: 80))
        #expect(text.hasSuffix("only the first 4194304 are shown]\n"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test("the plain renderings of the hostile inputs")
    func golden() {
        var out = ""
        for (name, html) in HostileHTMLTests.inputs {
            var text = RichText.render(html, options: RichTextOptions(width: 80))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count > 12 {
                text = lines.prefix(10).joined(separator: "\n") + "\n… (\(lines.count - 1) lines in all)\n"
            }
            out += "=== \(name)\n" + text
        }
        expectGolden(out, named: "hostile.txt")
    }
}
