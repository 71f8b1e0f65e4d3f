import DeliveryKit
import Foundation
import Testing

@testable import BlogModule

@Suite("Article text and dates")
struct TextTests {
    @Test("paragraphs, headings and list items on their own lines; entities decoded")
    func blocks() {
        let html = """
            <!DOCTYPE html><p>One &amp; two&nbsp;&lt;three&gt; &#233;t&#xE9; &rsquo;</p><h2>Steps</h2>\
            <ol><li>First</li><li>Second<ul><li>inner</li></ul></li></ol><p>Line<br>break</p>\
            <script>alert(1)</script><p>See <a href="https://x.example/a">the page</a>.</p>
            """
        #expect(
            HTMLText.render(html, width: 80) == """
                One & two <three> été ’

                STEPS

                1. First
                2. Second
                  • inner

                Line
                break

                See the page <https://x.example/a>.

                """)
    }

    @Test("a list item's paragraphs keep its marker; a quote is indented")
    func nested() {
        let html = "<ul><li><p>one</p></li><li><p>two</p><p>more</p></li></ul><blockquote><p>said</p></blockquote>"
        #expect(HTMLText.render(html, width: 80) == "• one\n• two\n\n  more\n\n  said\n")
    }

    @Test("text wraps to the width, continuation lines under the first word")
    func wrapping() {
        let text = HTMLText.render("<ul><li>aaaa bbbb cccc dddd eeee</li></ul>", width: 12)
        #expect(text == "• aaaa bbbb\n  cccc dddd\n  eeee\n")
        #expect(HTMLText.wrap("喫茶店 珈琲 珈琲", width: 10, first: "", rest: "") == ["喫茶店", "珈琲 珈琲"])
    }

    @Test(
        "posted dates are MMM dd, yyyy in the article's own time zone",
        arguments: [
            ("2021-10-07T08:55:00.000+05:45", "Asia/Kathmandu", "Oct 07, 2021"),
            ("2024-05-10T08:00:00.000+09:00", "Asia/Tokyo", "May 10, 2024"),
            ("2022-02-16T07:35:00.000-05:00", "", "Feb 16, 2022"),
        ])
    func dates(value: String, zone: String, expected: String) {
        let date = DeliveryDate(value: value, timezone: zone.isEmpty ? nil : zone)
        #expect(PostedDate.text(date) == expected)
    }

    @Test("a UTC value is shown on the day of its time zone when the system knows the zone")
    func zoneConversion() throws {
        try #require(TimeZone(identifier: "America/Denver") != nil)
        let date = DeliveryDate(value: "2020-06-17T03:00:00.000Z", timezone: "America/Denver")
        #expect(PostedDate.text(date) == "Jun 16, 2020")
    }
}
