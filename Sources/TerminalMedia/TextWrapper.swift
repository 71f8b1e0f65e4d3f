// Styled runs of text as lines of at most a width in display columns. Words are split at white
// space (collapsed to one space); a word wider than a line is cut across lines; `\n` (from
// `<br>`) ends a line. A word may be made of pieces in different styles ("**bold**,"), each
// drawn with its own SGR and, when hyperlinks are on, its own OSC 8 link.

/// Wrapping styled runs.
enum TextWrapper {
    /// One piece of a word: text in one style.
    typealias Piece = (text: String, style: InlineStyle, link: Int?)

    /// `segments` wrapped to `width` columns, white space collapsed. A line's pieces are drawn
    /// when it ends, neighbours in the same style and link merged (a space between two words of
    /// one style or link joins them), so a bold phrase or a link is one run, not one per word.
    static func wrap(_ segments: [Segment], width: Int, options: RichTextOptions, links: [String]) -> [String] {
        var lines: [String] = []
        var line: [Piece] = []
        var lineWidth = 0
        var word: [Piece] = []
        var wordWidth = 0

        func endLine() {
            lines.append(draw(merged(line), options: options, links: links))
            line.removeAll(keepingCapacity: true)
            lineWidth = 0
        }
        func place() {
            guard let first = word.first else { return }
            if lineWidth > 0 && lineWidth + 1 + wordWidth > width { endLine() }
            if lineWidth > 0, let last = line.last {
                let joined = last.style == first.style && last.link == first.link
                line.append((" ", joined ? last.style : [], joined ? last.link : nil))
                lineWidth += 1
            }
            if wordWidth <= width - lineWidth {
                line += word
                lineWidth += wordWidth
            } else {
                // Longer than a line: cut it, character by character.
                for piece in word {
                    var chunk = ""
                    for character in piece.text {
                        let cells = TerminalCells.width(of: character)
                        if lineWidth + cells > width && lineWidth > 0 {
                            line.append((chunk, piece.style, piece.link))
                            chunk = ""
                            endLine()
                        }
                        chunk.append(character)
                        lineWidth += cells
                    }
                    line.append((chunk, piece.style, piece.link))
                }
            }
            word.removeAll(keepingCapacity: true)
            wordWidth = 0
        }

        for segment in segments {
            var piece = ""
            for character in segment.text {
                if character == "\n" || character == " " || (character.isWhitespace && character != "\u{A0}") {
                    if !piece.isEmpty {
                        word.append((piece, segment.style, segment.link))
                        wordWidth += TerminalCells.width(of: piece)
                        piece = ""
                    }
                    place()
                    if character == "\n" { endLine() }
                } else {
                    piece.append(character)
                }
            }
            if !piece.isEmpty {
                word.append((piece, segment.style, segment.link))
                wordWidth += TerminalCells.width(of: piece)
            }
        }
        place()
        if lineWidth > 0 { endLine() }
        // A `<br>` at the very start or end of a block gives no empty line there.
        while lines.first == "" { lines.removeFirst() }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// `pieces` with neighbours of the same style and link joined.
    static func merged(_ pieces: [Piece]) -> [Piece] {
        var out: [Piece] = []
        for piece in pieces where !piece.text.isEmpty {
            if let last = out.last, last.style == piece.style, last.link == piece.link {
                out[out.count - 1].text += piece.text
            } else {
                out.append(piece)
            }
        }
        return out
    }

    /// Preformatted text: its own line breaks, two spaces of indent, lines longer than `width`
    /// cut across lines.
    static func preformatted(
        _ segments: [Segment], width: Int, options: RichTextOptions, links: [String]
    )
        -> [String]
    {
        var lines: [String] = []
        var line = "  "
        var lineWidth = 2
        for segment in segments {
            var chunk = ""
            for character in segment.text {
                if character == "\n" {
                    line += draw([(chunk, segment.style, segment.link)], options: options, links: links)
                    chunk = ""
                    lines.append(line)
                    line = "  "
                    lineWidth = 2
                    continue
                }
                let cells = TerminalCells.width(of: character)
                if lineWidth + cells > width {
                    line += draw([(chunk, segment.style, segment.link)], options: options, links: links)
                    chunk = ""
                    lines.append(line)
                    line = "  "
                    lineWidth = 2
                }
                chunk.append(character)
                lineWidth += cells
            }
            line += draw([(chunk, segment.style, segment.link)], options: options, links: links)
        }
        lines.append(line)
        while lines.first?.allSatisfy({ $0 == " " }) == true { lines.removeFirst() }
        while lines.last?.allSatisfy({ $0 == " " }) == true { lines.removeLast() }
        return lines.map { $0.trimmingTrailingSpaces() }
    }

    /// The pieces as terminal text: plain, or each in its SGR and hyperlink.
    static func draw(_ pieces: [Piece], options: RichTextOptions, links: [String]) -> String {
        var out = ""
        for piece in pieces where !piece.text.isEmpty {
            guard options.styles else {
                out += piece.text
                continue
            }
            var text = piece.text
            let sequence = piece.style.sequence
            if !sequence.isEmpty { text = sequence + text + InlineStyle.reset }
            if options.hyperlinks, let link = piece.link, link < links.count {
                text = "\u{1B}]8;;" + links[link] + "\u{1B}\\" + text + "\u{1B}]8;;\u{1B}\\"
            }
            out += text
        }
        return out
    }
}

extension String {
    /// The string without spaces at its end.
    package func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
