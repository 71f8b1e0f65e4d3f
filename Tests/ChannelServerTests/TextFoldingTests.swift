import Testing

@testable import ChannelServer

@Suite("words split and folded by SQLite's FTS5 tokenizer")
struct TextFoldingTests {
    @Test(
        "a value's words are the index's words: unicode61 with remove_diacritics 2",
        arguments: [
            ("Café crème, brûlée!", ["cafe", "creme", "brulee"]),
            ("ROASTING d'Ana", ["roasting", "d", "ana"]),
            // The Swift copy this replaced stripped Greek accents; SQLite keeps them.
            ("Ελληνικά ΆΈΉ", ["ελληνικά", "άέή"]),
            ("x*y? 日本語", ["x", "y", "日本語"]),
            ("", []),
        ])
    func words(text: String, expected: [String]) {
        #expect(TextFolding.words(text) == expected)
    }

    @Test("with wildcards, * and ? stay inside the words of an mt pattern")
    func wildcards() {
        #expect(TextFolding.words("Caf* cr?me", wildcards: true) == ["caf*", "cr?me"])
    }

    @Test("search words drop stop words and repeats")
    func searchWords() {
        #expect(TextFolding.searchWords("The café and the CAFE of Lima") == ["cafe", "lima"])
        #expect(TextFolding.searchWordsKeepingRepeats("the Café cafe") == ["cafe", "cafe"])
    }

    @Test("words are folded the same from many threads at once")
    func concurrent() async {
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<16 { group.addTask { TextFolding.words("Crème Brûlée à la Ελληνικά") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == ["creme", "brulee", "a", "la", "ελληνικά"] })
    }
}
