import OCEQShell
import Testing

/// The list of files in a summary's text: the first 50 named, the rest counted.
@Suite("Written files in a summary")
struct WrittenFilesTests {
    @Test("60 files: 50 lines, then 'and 10 more files'; only the 50 shown are made")
    func sixty() {
        let made = Counter()
        let text = WrittenFiles.lines(count: 60, verb: "wrote") { index in
            made.count += 1
            return "f\(index).jpg"
        }
        let lines = text.split(separator: "\n")
        #expect(lines.count == 51)
        #expect(lines.first == "wrote: f0.jpg")
        #expect(lines[49] == "wrote: f49.jpg")
        #expect(lines.last == "and 10 more files (set format json lists them all)")
        #expect(made.count == 50)
        #expect(WrittenFiles.lines((0..<60).map { "f\($0).jpg" }, verb: "wrote") == text)
    }

    @Test("none, one, and exactly 50: no count line; a control character in a name is shown harmless")
    func small() {
        #expect(WrittenFiles.lines([], verb: "wrote") == "")
        #expect(WrittenFiles.lines(["a\u{1B}[2Jb.jpg"], verb: "wrote").contains("\u{1B}") == false)
        #expect(WrittenFiles.lines(count: 50, verb: "saved") { "x\($0)" }.split(separator: "\n").count == 50)
        #expect(
            WrittenFiles.lines(count: 51, verb: "saved") { "x\($0)" }.hasSuffix(
                "and 1 more file (set format json lists them all)\n"))
    }

    /// Counts calls of a non-escaping closure.
    final class Counter {
        var count = 0
    }
}
