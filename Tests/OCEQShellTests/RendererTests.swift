import DeliveryKit
import Foundation
import OCEQCore
import Testing

@testable import OCEQShell

/// An item with the given standard fields.
func item(
    _ id: String, type: String = "Article", name: String, description: String = "", fields: [String: JSON]? = nil
)
    -> Asset
{
    var object: [String: JSON] = [
        "id": .string(id), "type": .string(type), "name": .string(name), "description": .string(description),
    ]
    if let fields { object["fields"] = .object(fields) }
    return try! Asset(json: .object(object))
}

@Suite("Renderers")
struct RendererTests {
    static let wide = Listing(
        items: [
            item("CORE1", name: "Coffee", description: "A short one"),
            item("CORE2", name: "コーヒーの淹れ方", description: "日本語の説明文がここに入ります。とても長い説明です。"),
            item("CORE3", name: "Café ☕️ au lait", description: "Emoji and accents"),
        ], totalResults: 12, hasMore: true)

    @Test("a table aligns CJK and emoji by display width")
    func cjkAlignment() {
        let sink = MemoryOutput(width: 120)
        TableRenderer().render(.items(RendererTests.wide), to: sink)
        expectGolden(sink.text, named: "table-cjk.txt")
        let lines = sink.text.split(separator: "\n").dropLast().map(String.init)
        // The description column starts at the same display column on every line.
        let header = lines[0]
        let column = TerminalText.width(of: String(header[..<header.range(of: "description")!.lowerBound]))
        for line in lines.dropFirst(2) {
            let cells = line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            let prefix = line.range(of: cells.last!)!.lowerBound
            #expect(TerminalText.width(of: String(line[..<prefix])) == column, "\(line)")
        }
    }

    @Test("a table too wide for 40 columns is cut with …, ids last")
    func narrow() {
        let sink = MemoryOutput(width: 40)
        TableRenderer().render(.items(RendererTests.wide), to: sink)
        expectGolden(sink.text, named: "table-narrow.txt")
        for line in sink.text.split(separator: "\n") {
            #expect(TerminalText.width(of: String(line)) <= 40, "\(line)")
        }
        #expect(sink.text.contains("…"))
    }

    @Test("control characters from the server never reach the terminal", arguments: OutputFormat.allCases)
    func controlCharacters(format: OutputFormat) {
        let hostile = item(
            "CORE9", name: "red\u{1B}[31mALERT\u{1B}]0;title\u{07}\u{9B}2J", description: "line\nbreak\tand\u{85}next",
            fields: ["note": .string("\u{1B}[2Jgone")])
        let sink = MemoryOutput(width: 200)
        format.renderer.render(.items(Listing(items: [hostile])), to: sink)
        format.renderer.render(.item(hostile), to: sink)
        for scalar in sink.text.unicodeScalars where scalar != "\n" && scalar != "\r" {
            #expect(!TerminalText.isControl(scalar), "\(format): U+\(String(scalar.value, radix: 16)) in \(sink.text)")
        }
    }

    @Test("JSON is pretty on a terminal and compact otherwise; ndjson is one line per item")
    func json() {
        let listing = Listing(items: [item("CORE1", name: "A"), item("CORE2", name: "B")])
        let terminal = MemoryOutput(isTerminal: true)
        JSONRenderer(lines: false).render(.items(listing), to: terminal)
        #expect(terminal.text.hasPrefix("[\n  {\n    \"description\": \"\","))
        let pipe = MemoryOutput()
        JSONRenderer(lines: false).render(.items(listing), to: pipe)
        #expect(
            pipe.text
                == "[{\"description\":\"\",\"id\":\"CORE1\",\"name\":\"A\",\"type\":\"Article\"},"
                + "{\"description\":\"\",\"id\":\"CORE2\",\"name\":\"B\",\"type\":\"Article\"}]\n")
        let lines = MemoryOutput()
        JSONRenderer(lines: true).render(.items(listing), to: lines)
        #expect(lines.text.split(separator: "\n").count == 2)
        let count = MemoryOutput()
        JSONRenderer(lines: false).render(.count(7), to: count)
        #expect(count.text == "7\n")
    }

    @Test("CSV quotes commas, quotes and line breaks")
    func csv() {
        let sink = MemoryOutput()
        CSVRenderer().render(.items(Listing(items: [item("CORE1", name: "Tea, \"green\"")])), to: sink)
        #expect(sink.text == "id,type,name,description\r\nCORE1,Article,\"Tea, \"\"green\"\"\",\r\n")
    }

    @Test("display widths", arguments: [("abc", 3), ("日本", 4), ("é", 1), ("☕️", 2), ("", 0)])
    func widths(text: String, width: Int) {
        #expect(TerminalText.width(of: text) == width)
    }
}

@Suite("Renderers on a terminal")
struct TerminalRendererTests {
    static let rows = Listing(items: [
        item("CORE0123456789ABCDEF0123456789ABCDEF", name: "Coffee", description: "A fairly long description")
    ])

    @Test("80 columns keep the table; a terminal too narrow for whole ids switches to expanded")
    func automaticExpanded() {
        let wide = MemoryOutput(isTerminal: true, width: 80)
        TableRenderer().render(.items(TerminalRendererTests.rows), to: wide)
        #expect(wide.text.hasPrefix("#  id "))
        let narrow = MemoryOutput(isTerminal: true, width: 60)
        TableRenderer().render(.items(TerminalRendererTests.rows), to: narrow)
        #expect(narrow.text.hasPrefix("-[ RECORD 1 ]-\nid "))
    }
}
