// The Unicode bidirectional controls: the embeddings and overrides (U+202A–U+202E), the isolates
// (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C). Invisible, they can make a name show
// reversed ("Trojan Source": `exe.jpg` written as `gpj.exe` after U+202E), so file names offered
// by oceq drop them and JSON on a terminal shows them escaped.

/// Recognising and removing bidirectional control characters.
package enum BidiControls {
    /// Whether `scalar` is one of the bidirectional controls.
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return false
        }
    }

    /// `text` without its bidirectional controls.
    package static func stripped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: contains) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !contains(scalar) { out.append(scalar) }
        return String(out)
    }
}
