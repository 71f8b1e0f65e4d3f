// Display columns and control characters, below the shell: the HTML renderer wraps by what the
// terminal shows, and OCEQShell's TerminalText measures with the same functions.

import CSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Measuring and sanitising text for terminal cells.
package enum TerminalCells {
    /// C0 (ESC among them), DEL and C1, and the bidi embeddings, overrides and isolates
    /// (U+202A-U+202E, U+2066-U+2069), with which a name could show reversed ("Trojan Source").
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// True when every byte of `text` is printable ASCII (or, `keepingLines`, a line break or a tab):
    /// then there is nothing to clean. Looked at byte by byte rather than scalar by scalar, which cost
    /// ten times as much (a download's summary of 50 files was cleaned in 0.3 M instructions).
    static func isPlainASCII(_ text: String, keepingLines: Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte > 0x7E {
                guard keepingLines && (byte == 0x0A || byte == 0x09) else { return false }
            }
            return true
        } ?? false
    }

    /// `text` with tabs and line breaks as spaces and every other control character dropped; with
    /// `keepingLines`, line breaks and tabs kept as they are (a multi-line value) and the rest dropped.
    package static func clean(_ text: String, keepingLines: Bool = false) -> String {
        if isPlainASCII(text, keepingLines: keepingLines) { return text }
        func kept(_ scalar: Unicode.Scalar) -> Bool { keepingLines && (scalar == "\n" || scalar == "\t") }
        guard text.unicodeScalars.contains(where: { !kept($0) && isControl($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if kept(scalar) {
                out.append(scalar)
            } else if !keepingLines && (scalar == "\t" || scalar == "\n" || scalar == "\r") {
                out.append(" ")
            } else if !isControl(scalar) {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Makes `wcwidth` know UTF-8: the user's locale when it is UTF-8, else C.UTF-8.
    static let localeReady: Bool = {
        if let name = setlocale(LC_CTYPE, ""), String(cString: name).uppercased().contains("UTF") { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil
    }()

    /// Display columns of one character: 2 for wide (CJK, most emoji), 0 for combining marks.
    package static func width(of character: Character) -> Int {
        _ = localeReady
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        let width = wcwidth(wchar_t(bitPattern: first.value))
        if width < 0 { return 1 }
        return Int(width)
    }

    /// Display columns of `text`.
    package static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }
}
