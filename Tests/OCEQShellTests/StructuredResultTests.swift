import DeliveryKit
import Foundation
import OCEQCore
import Testing

@testable import OCEQShell

/// `result` as the renderer of `format` writes it off a terminal.
private func rendered(_ result: CommandResult, as format: OutputFormat, width: Int = 80) -> String {
    let sink = MemoryOutput(width: width)
    format.renderer.render(result, to: sink)
    return sink.text
}

@Suite("Structured results: tables, documents and screens in every format")
struct StructuredResultTests {
    static let table = Table(
        columns: ["type", "items"], rows: [["Image", "74"], ["Article, long", "3"]],
        records: [["type": "Image", "items": 74], ["type": "Article, long", "items": 3]], title: "Types",
        footer: "(2 types)")

    @Test("a table: title, aligned rows and footer in table; records in expanded; no title in csv")
    func table() {
        #expect(
            rendered(.table(Self.table), as: .table)
                == "Types\ntype           items\n-------------  -----\nImage          74\nArticle, long  3\n(2 types)\n"
        )
        #expect(
            rendered(.table(Self.table), as: .expanded)
                == "Types\n-[ RECORD 1 ]-\ntype   Image\nitems  74\n-[ RECORD 2 ]-\ntype   Article, long\nitems  3\n(2 types)\n"
        )
        #expect(rendered(.table(Self.table), as: .csv) == "type,items\r\nImage,74\r\n\"Article, long\",3\r\n")
    }

    @Test("a table's records are its JSON: one array, or one record per line in ndjson")
    func tableJSON() {
        #expect(
            rendered(.table(Self.table), as: .json)
                == #"[{"items":74,"type":"Image"},{"items":3,"type":"Article, long"}]"#
                + "\n")
        #expect(
            rendered(.table(Self.table), as: .ndjson) == #"{"items":74,"type":"Image"}"# + "\n"
                + #"{"items":3,"type":"Article, long"}"# + "\n")
        let plain = Table(columns: ["a"], rows: [["x"]])
        #expect(rendered(.table(plain), as: .json) == #"[{"a":"x"}]"# + "\n")
    }

    @Test("a table without rows shows its title and footer only")
    func emptyTable() {
        let empty = Table(columns: ["type"], rows: [], footer: "(no items in this channel)")
        #expect(rendered(.table(empty), as: .table) == "(no items in this channel)\n")
        #expect(rendered(.table(empty), as: .json) == "[]\n")
        #expect(rendered(.table(empty), as: .csv) == "type\r\n")
    }

    @Test("a document is key/value lines for people, field,value rows in csv and JSON in json")
    func document() {
        let summary: JSON = ["folder": "out", "items": 2, "failures": [["id": "CONT1", "reason": "HTTP 503"]]]
        let lines =
            "failures.1.id      CONT1\nfailures.1.reason  HTTP 503\nfolder             out\nitems              2\n"
        #expect(rendered(.document(summary), as: .table) == lines)
        #expect(rendered(.document(summary), as: .expanded) == lines)
        #expect(
            rendered(.document(summary), as: .csv)
                == "field,value\r\nfailures.1.id,CONT1\r\nfailures.1.reason,HTTP 503\r\nfolder,out\r\nitems,2\r\n")
        #expect(
            rendered(.document(summary), as: .json)
                == #"{"failures":[{"id":"CONT1","reason":"HTTP 503"}],"folder":"out","items":2}"# + "\n")
        #expect(rendered(.document("Priya"), as: .table) == "value  Priya\n")
        #expect(rendered(.document(["a", "b"]), as: .ndjson) == "\"a\"\n\"b\"\n")
    }

    @Test("a screen is shown to people; json, ndjson and csv render the data behind it")
    func screen() {
        let asset = item("CORE1", name: "Coffee")
        let result = CommandResult.screen("Coffee, read\n", data: .item(asset))
        #expect(rendered(result, as: .table) == "Coffee, read\n")
        #expect(rendered(result, as: .expanded) == "Coffee, read\n")
        #expect(rendered(result, as: .ndjson).hasPrefix(#"{"description":"","id":"CORE1""#))
        #expect(rendered(result, as: .csv).hasPrefix("field,value\r\nid,CORE1\r\n"))
    }

    @Test("C1 controls in a document are escaped in JSON and dropped from the text")
    func hostileDocument() {
        let value: JSON = ["name": "bad\u{9B}31mname\u{1B}]0;x\u{07}"]
        #expect(rendered(.document(value), as: .json) == #"{"name":"bad\u009b31mname\u001b]0;x\u0007"}"# + "\n")
        #expect(!rendered(.document(value), as: .table).unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }
}
