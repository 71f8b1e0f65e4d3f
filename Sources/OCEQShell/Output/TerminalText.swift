// Text from the server is untrusted: before anything is printed, control characters (C0 including
// ESC, DEL, and C1) are removed so that no item can move the cursor, retitle the window or hide
// output. Widths are display columns (`wcwidth`), so CJK and emoji cells line up.

import TerminalMedia

/// Sanitising and measuring text for the terminal.
package enum TerminalText {
    /// `text` with every control character replaced: tabs and line breaks by a space (one cell
    /// stays one line), everything else (ESC, other C0, DEL, C1) dropped.
    package static func clean(_ text: String) -> String { TerminalCells.clean(text) }

    /// `text` with control characters dropped but line breaks and tabs kept (for multi-line values).
    package static func cleanKeepingLines(_ text: String) -> String { TerminalCells.clean(text, keepingLines: true) }

    /// C0 (ESC among them), DEL and C1.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool { TerminalCells.isControl(scalar) }

    /// Display columns of one character: 2 for wide (CJK, most emoji), 0 for combining marks.
    package static func width(of character: Character) -> Int { TerminalCells.width(of: character) }

    /// Display columns of `text`.
    package static func width(of text: String) -> Int { TerminalCells.width(of: text) }

    /// `text` cut to at most `columns` display columns, ending in `…` when it was cut.
    package static func truncate(_ text: String, to columns: Int) -> String {
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
    package static func pad(_ text: String, to columns: Int) -> String {
        let w = width(of: text)
        return w >= columns ? text : text + String(repeating: " ", count: columns - w)
    }
}
