// HTML for the terminal: parsed by libxml2 (which recovers from any markup), walked without
// recursion, written as wrapped lines by RichTextBuilder. Every character of the document passes
// through TerminalCells.clean or SafeLink, so the only escape sequences in the result are the
// SGR styles and OSC 8 links this renderer writes itself, and only when the options ask for them.

/// HTML as terminal text.
package enum RichText {
    /// `html` as lines no wider than `options.width` columns (each ending in a newline), links
    /// as OSC 8 hyperlinks or as numbered footnotes listed after the text. Input longer than
    /// `options.maxInputBytes` is cut there, with a note.
    package static func render(_ html: String, options: RichTextOptions) -> String {
        var bytes = Array(html.utf8)
        let total = bytes.count
        var note: String?
        if total > options.maxInputBytes {
            bytes.removeSubrange(options.maxInputBytes...)
            // Drop a UTF-8 sequence cut in its middle.
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
            note = "[the text is \(total) bytes; only the first \(bytes.count) are shown]"
        }
        var builder = RichTextBuilder(options: options)
        switch HTMLTree.walk(bytes, with: &builder) {
        case .complete: break
        case .unreadable: return "[the text could not be read as HTML]\n"
        case .tooDeep:
            let deep = "[the HTML nests elements too deeply; the rest of it is not shown]"
            note = note.map { $0 + "\n" + deep } ?? deep
        }
        builder.finish()
        var lines = builder.lines
        let footnotes = options.styles && options.hyperlinks ? [] : builder.links
        if !footnotes.isEmpty {
            lines.append("")
            for (index, link) in footnotes.enumerated() { lines.append("[\(index + 1)] " + link) }
        }
        if let note {
            if !lines.isEmpty { lines.append("") }
            lines.append(note)
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `html` as one line of plain text (for excerpts): no styles, no footnotes.
    package static func plainLine(_ html: String, maxInputBytes: Int = 1 << 20) -> String {
        var builder = RichTextBuilder(options: RichTextOptions(width: Int.max / 4, maxInputBytes: maxInputBytes))
        var bytes = Array(html.utf8)
        if bytes.count > maxInputBytes { bytes.removeSubrange(maxInputBytes...) }
        guard HTMLTree.walk(bytes, with: &builder) != .unreadable else { return "" }
        builder.finish()
        return builder.lines.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Plain `text` (control characters removed, white space collapsed) wrapped to `width`
    /// columns, `first` before the first line and `rest` before the others.
    package static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        let indent = max(TerminalCells.width(of: first), TerminalCells.width(of: rest))
        let lines = TextWrapper.wrap(
            [Segment(text: TerminalCells.clean(text))], width: max(width - indent, 10),
            options: RichTextOptions(width: width), links: [])
        return lines.enumerated().map { ($0.offset == 0 ? first : rest) + $0.element }
    }
}
