import Testing

@testable import TerminalMedia

/// The byte-wise shortcut of `TerminalCells.clean`: a text of printable ASCII is returned as it is,
/// and every ASCII control byte still takes the scalar path (dropped, or a space for tab and breaks).
@Suite("Cleaning plain ASCII text")
struct PlainASCIITests {
    @Test("each ASCII byte between two letters is kept, replaced by a space, or dropped as before")
    func everyASCIIByte() {
        for value in UInt8(0)...UInt8(0x7F) {
            let scalar = Unicode.Scalar(value)
            let text = "a" + String(Character(scalar)) + "b"
            let expected: String
            if value == 0x09 || value == 0x0A || value == 0x0D {
                expected = "a b"
            } else if value < 0x20 || value == 0x7F {
                expected = "ab"
            } else {
                expected = text
            }
            #expect(TerminalCells.clean(text) == expected, "byte \(value)")
            let keptLines = value == 0x09 || value == 0x0A ? text : value < 0x20 || value == 0x7F ? "ab" : text
            #expect(TerminalCells.clean(text, keepingLines: true) == keptLines, "byte \(value), lines kept")
            #expect(TerminalCells.isPlainASCII(text, keepingLines: false) == (value >= 0x20 && value < 0x7F))
            #expect(
                TerminalCells.isPlainASCII(text, keepingLines: true)
                    == (value >= 0x20 && value < 0x7F || value == 0x0A || value == 0x09))
        }
    }

    @Test("text beyond ASCII takes the scalar path: C1 and bidi controls are dropped, letters kept")
    func beyondASCII() {
        #expect(!TerminalCells.isPlainASCII("café", keepingLines: true))
        #expect(TerminalCells.clean("caf\u{e9}\u{9b}[31m") == "café[31m")
        #expect(TerminalCells.clean("x\u{2066}y") == "xy")
        #expect(TerminalCells.clean("caf\u{e9}\n\u{1b}[1m\r\tx", keepingLines: true) == "café\n[1m\tx")
    }
}
