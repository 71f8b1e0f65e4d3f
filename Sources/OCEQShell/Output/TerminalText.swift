// Text from the server is untrusted: before anything is printed, control characters (C0 including
// ESC, DEL, and C1) are removed so that no item can move the cursor, retitle the window or hide
// output. Widths are display columns (`wcwidth`), so CJK and emoji cells line up.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Sanitising and measuring text for the terminal.
public enum TerminalText {
    /// `text` with every control character replaced: tabs and line breaks by a space (one cell
    /// stays one line), everything else (ESC, other C0, DEL, C1) dropped.
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                out.append(" ")
            } else if !isControl(scalar) {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` with control characters dropped but line breaks and tabs kept (for multi-line values).
    public static func cleanKeepingLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar == "\n" || scalar == "\t" || !isControl(scalar) {
            out.append(scalar)
        }
        return String(out)
    }

    /// C0 (ESC among them), DEL and C1.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// Makes `wcwidth` know UTF-8: the user's locale when it is UTF-8, else C.UTF-8.
    static let localeReady: Bool = {
        if let name = setlocale(LC_CTYPE, ""), String(cString: name).uppercased().contains("UTF") { return true }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil
    }()

    /// Display columns of one character: 2 for wide (CJK, most emoji), 0 for combining marks.
    public static func width(of character: Character) -> Int {
        _ = localeReady
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        let width = systemWCWidth(Int32(bitPattern: first.value))
        if width < 0 { return 1 }
        return Int(width)
    }

    /// Display columns of `text`.
    public static func width(of text: String) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    /// `text` cut to at most `columns` display columns, ending in `…` when it was cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if width(of: text) <= columns { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = width(of: character)
            if used + w > columns - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// `text` padded with spaces to `columns` display columns.
    public static func pad(_ text: String, to columns: Int) -> String {
        let w = width(of: text)
        return w >= columns ? text : text + String(repeating: " ", count: columns - w)
    }
}

/// glibc's `wcwidth`, which the Glibc module does not export (it needs `_XOPEN_SOURCE`).
@_silgen_name("wcwidth")
func systemWCWidth(_ character: Int32) -> Int32
