// Output that hostile server text must not turn against the reader (issue 20, point 10): formulas
// in CSV, bidirectional controls in JSON on a terminal, a huge name in a table, a FIFO among the
// plugins, and a call that would print ten thousand errors.

import DeliveryKit
import Foundation
import OCEQCore
import OCEQLanguage
import OCEQTestSupport
import Testing

@testable import OCEQShell

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Hostile output: CSV formulas, bidi in JSON, huge cells, FIFO plugins, bounded errors")
struct HostileOutputTests {
    /// The CSV of one item named `name`.
    static func csv(_ name: String, raw: Bool = false) -> String {
        let sink = MemoryOutput()
        CSVRenderer(raw: raw).render(.items(Listing(items: [item("CORE1", name: name)])), to: sink)
        return sink.text
    }

    @Test(
        "CSV cells a spreadsheet would run get a leading ' and quotes",
        arguments: [
            ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
            ("+cmd|' /C calc'!A0", "\"'+cmd|' /C calc'!A0\""),
            ("-2+3+cmd", "\"'-2+3+cmd\""), ("@SUM(A1)", "\"'@SUM(A1)\""),
        ])
    func formulas(name: String, written: String) {
        #expect(Self.csv(name) == "id,type,name,description\r\nCORE1,Article,\(written),\r\n")
    }

    @Test("a cell starting with a tab or CR is neutralised too (server text reaches CSV with them cleaned)")
    func tabAndReturn() {
        #expect(CSVRenderer.neutralised("\tx") == "\"'\tx\"")
        #expect(CSVRenderer.neutralised("\r=1") == "\"'\r=1\"")
        #expect(CSVRenderer.neutralised("x\ty") == "x\ty")
    }

    @Test("CSV numbers with a sign stay numbers, and --csv-raw writes every cell as it is")
    func numbersAndRaw() {
        for number in ["-3", "+7", "-2.5", "-1e5", "+.5"] {
            #expect(Self.csv(number) == "id,type,name,description\r\nCORE1,Article,\(number),\r\n")
        }
        #expect(Self.csv("=1+1", raw: true) == "id,type,name,description\r\nCORE1,Article,=1+1,\r\n")
        #expect(Self.csv("-", raw: false).contains(",\"'-\","))
        let table = MemoryOutput()
        CSVRenderer().render(.table(Table(columns: ["=a"], rows: [["@b"]])), to: table)
        #expect(table.text == "\"'=a\"\r\n\"'@b\"\r\n")
    }

    @Test("the command line takes --csv-raw, and set csv-raw on|off changes the CSV renderer")
    @MainActor
    func csvRawSetting() async throws {
        #expect(try CLIOptions.parse(["--csv-raw", "-c", "list"]).csvRaw)
        #expect(try !CLIOptions.parse(["-c", "list"]).csvRaw)
        let (session, _, _) = makeSession(registry: .standard)
        session.settings.format = .csv
        #expect((session.settings.renderer as? CSVRenderer)?.raw == false)
        #expect(await ScriptRunner.run(text: "set csv-raw on", fileName: nil, in: session) == 0)
        #expect((session.settings.renderer as? CSVRenderer)?.raw == true)
        #expect(session.settings.summary.contains("csv-raw  on\n"))
        #expect(await ScriptRunner.run(text: "set csv-raw off", fileName: nil, in: session) == 0)
        #expect(!session.settings.csvRaw)
    }

    @Test("JSON on a terminal escapes bidi controls; piped, it keeps them exact")
    func jsonBidi() throws {
        let controls =
            ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}"]
            + ["\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}"]
        let name = "evil" + controls.joined() + "gpj.exe"
        let terminal = MemoryOutput(isTerminal: true, width: 120)
        JSONRenderer(lines: false).render(.item(item("CORE1", name: name)), to: terminal)
        #expect(
            terminal.text.contains(
                #""name": "evil\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061cgpj.exe""#),
            "\(terminal.text)")
        #expect(!terminal.text.unicodeScalars.contains(where: BidiControls.contains))
        // The escaped form is the same JSON string.
        let parsed = try JSON.parse(terminal.text)
        #expect(parsed["name"]?.stringValue == name)
        let piped = MemoryOutput()
        JSONRenderer(lines: true).render(.item(item("CORE1", name: name)), to: piped)
        #expect(piped.text.contains("\"name\":\"\(name)\""))
    }

    @Test("a 1 MB name does not pad every row: a column is at most 200 columns, cut with …")
    func columnCap() {
        let huge = String(repeating: "n", count: 1 << 20)
        let listing = Listing(
            items: [item("CORE1", name: huge, description: "d")]
                + (2...50).map { item("CORE\($0)", name: "x", description: "d") })
        let sink = MemoryOutput(width: Int.max / 4)
        TableRenderer().render(.items(listing), to: sink)
        let lines = sink.text.split(separator: "\n")
        #expect(lines.count == 53)
        #expect(
            lines.allSatisfy { TerminalText.width(of: String($0)) < 300 }, "longest \(lines.map(\.count).max() ?? 0)")
        #expect(lines[2].contains(String(repeating: "n", count: 199) + "…"))
        #expect(sink.text.utf8.count < 20_000)
    }

    @Test("a FIFO or a socket in the plugins folder is skipped with a line; the start does not hang")
    func fifoPlugin() throws {
        let folder = try PluginFolder(["good.oceq": "define ok()\n  echo ok\nend\n"])
        defer { folder.remove() }
        #expect(mkfifo(folder.path("fifo.oceq"), 0o600) == 0)
        let (registry, problems) = loadPlugins(folder: folder, flags: [folder.path("fifo.oceq"), "/dev/null"])
        #expect(
            problems.contains(
                "oceq: plugin \(folder.path("fifo.oceq")) skipped: cannot read it (not a regular file (a FIFO))\n"))
        #expect(problems.contains("oceq: plugin /dev/null skipped: cannot read it (not a regular file (a device))\n"))
        #expect(registry.userCommand(named: "ok") != nil)
    }

    @Test("a call missing 10,000 arguments prints 10 errors, then how many more")
    @MainActor
    func boundedErrors() async throws {
        let parameters = (1...10_000).map { "p\($0)" }.joined(separator: ",")
        let script = "define many(\(parameters))\n  echo x\nend\nmany\n"
        let (session, _, errors) = makeSession(registry: .standard)
        let code = await ScriptRunner.run(text: script, fileName: "many.oceq", in: session)
        #expect(code == 2)
        let text = errors.text
        #expect(text.components(separatedBy: "error: ").count - 1 == 10, "\(text.prefix(2000))")
        #expect(text.hasSuffix("and 9,990 more errors\n"))
        #expect(text.utf8.count < 10_000, "\(text.utf8.count) bytes")
        // The same bound for any list, and for the error's description.
        let many = DiagnosticError(
            (0..<25).map { Diagnostic(.expectedCommand, at: SourceSpan(start: $0, end: $0 + 1)) })
        #expect(many.description.hasSuffix("and 15 more errors"))
        #expect(many.description.split(separator: "\n").count == 11)
    }
}
