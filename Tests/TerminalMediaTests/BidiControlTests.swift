// Bidi embeddings, overrides and isolates from a server never reach the terminal: a QA run showed
// an asset named "\u{202E}gpj.exe" printed by `list`, `show` and the errors of `download`, where
// a bidi-aware terminal shows it reversed ("Trojan Source"). Letters of right-to-left scripts stay.

import Testing

@testable import TerminalMedia

@Suite("Bidi controls")
struct BidiControlTests {
    @Test("embeddings, overrides and isolates are dropped; Hebrew and Arabic letters stay")
    func dropped() {
        let hostile = "a\u{202A}b\u{202B}c\u{202C}d\u{202D}e\u{202E}f\u{2066}g\u{2067}h\u{2068}i\u{2069}j"
        #expect(TerminalCells.clean(hostile) == "abcdefghij")
        #expect(TerminalCells.clean("evil\u{202E}gpj.exe") == "evilgpj.exe")
        #expect(TerminalCells.clean("שלום مرحبا") == "שלום مرحبا")
        #expect(TerminalCells.width(of: TerminalCells.clean("x\u{202E}y")) == 2)
    }
}
