import OCEQCore
import Testing

@Suite("String.quickLowercased")
struct QuickLowercasedTests {
    @Test(
        "it is lowercased() for ASCII, other scripts and mixed text alike",
        arguments: [
            "", "a", "Z", "photo.jpg", "PHOTO.JPG", "Content-Type", "X-Oceq-Key_1 (2).Jpg", "@[`{", "~!#$%^&*()",
            "Caf\u{E9}.JPG", "CAFE\u{301}", "\u{130}stanbul", "STRASSE \u{1E9E}", "\u{391}\u{3A3}",
            "MiXeD \u{C9}t\u{C9}",
        ])
    func sameAsLowercased(text: String) {
        #expect(text.quickLowercased == text.lowercased())
        #expect(Array(text.quickLowercased.utf8) == Array(text.lowercased().utf8))
    }
}
