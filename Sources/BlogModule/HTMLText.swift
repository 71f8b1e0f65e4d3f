// A small HTML-to-text for article bodies on a terminal: tags stripped, paragraphs, headings,
// list items and quotes as blocks on their own lines, entities decoded, words wrapped to a
// width. Deliberately simple (no DOM, no CSS); the media work replaces it with libxml2.

import Foundation
import OCEQShell

/// Article HTML as terminal text.
enum HTMLText {
    /// One block of text: a paragraph, a heading, a list item.
    struct Block {
        var text = ""
        /// Written before the first line (`• `, `2. `), continuation lines are indented to match.
        var marker = ""
        /// Levels of list or quote nesting.
        var indent = 0
        var isHeading = false
        /// Follows the previous block without a blank line (after `<br>`).
        var isTight = false
    }

    /// `html` as lines no wider than `width` columns, blocks separated by blank lines (list items
    /// of one list are not).
    static func render(_ html: String, width: Int) -> String {
        var lines: [String] = []
        var previousWasItem = false
        for block in blocks(html) {
            let text = TerminalText.clean(block.text).split(separator: " ", omittingEmptySubsequences: true)
                .joined(separator: " ")
            guard !text.isEmpty else { continue }
            let isItem = !block.marker.isEmpty
            if !lines.isEmpty && !(isItem && previousWasItem) && !block.isTight { lines.append("") }
            previousWasItem = isItem
            let indent = String(repeating: "  ", count: block.indent)
            let marker = TerminalText.clean(block.marker)
            let first = indent + marker
            let rest = indent + String(repeating: " ", count: TerminalText.width(of: marker))
            lines += wrap(block.isHeading ? text.uppercased() : text, width: width, first: first, rest: rest)
        }
        return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
    }

    /// `text` wrapped at spaces to `width` columns, `first` before the first line and `rest`
    /// before the others; a word longer than a line gets a line of its own.
    static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineWidth = TerminalText.width(of: first)
        var empty = true
        for word in text.split(separator: " ") {
            let wordWidth = TerminalText.width(of: String(word))
            if !empty && lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = rest
                lineWidth = TerminalText.width(of: rest)
                empty = true
            }
            if !empty {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
            empty = false
        }
        if !empty { lines.append(line) }
        return lines
    }

    static let blockTags: Set<String> = [
        "p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "blockquote", "pre", "tr",
        "table", "section", "article", "header", "footer", "figure", "figcaption", "hr",
    ]
    static let skippedTags: Set<String> = ["script", "style", "head", "title"]

    /// The blocks of `html`, in order.
    static func blocks(_ html: String) -> [Block] {
        var blocks: [Block] = []
        var current = Block()
        var lists: [(ordered: Bool, next: Int)] = []
        var quotes = 0
        var skipping: String?
        var link: String?
        var linkText = ""

        // An empty block survives an opening `<p>` or `<div>`: `<li><p>text</p></li>` keeps its marker.
        func flush(keepingEmpty: Bool = false) {
            if !current.text.trimmingCharacters(in: .whitespaces).isEmpty {
                blocks.append(current)
            } else if keepingEmpty {
                return
            }
            current = Block()
            current.indent = lists.count + quotes
        }

        var index = html.startIndex
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let inside = html[html.index(after: index)..<close]
                index = html.index(after: close)
                if inside.hasPrefix("!") || inside.hasPrefix("?") { continue }
                let isEnd = inside.hasPrefix("/")
                let name = String(
                    inside.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber })
                ).lowercased()
                if let skipped = skipping {
                    if isEnd && name == skipped { skipping = nil }
                    continue
                }
                if skippedTags.contains(name) && !isEnd {
                    skipping = name
                    continue
                }
                if name == "a" {
                    if isEnd {
                        if let href = link, !href.isEmpty, href != linkText.trimmingCharacters(in: .whitespaces),
                            !href.hasPrefix("#")
                        {
                            current.text += " <\(href)>"
                        }
                        link = nil
                    } else {
                        link = attribute("href", in: String(inside)).map(decodeEntities)
                        linkText = ""
                    }
                    continue
                }
                guard blockTags.contains(name) else { continue }
                let isHeading = name.count == 2 && name.hasPrefix("h") && name != "hr"
                flush(keepingEmpty: !isEnd && !isHeading && !["li", "ul", "ol", "br"].contains(name))
                switch (name, isEnd) {
                case ("ul", false), ("ol", false):
                    lists.append((name == "ol", 1))
                case ("ul", true), ("ol", true):
                    if !lists.isEmpty { lists.removeLast() }
                case ("blockquote", false): quotes += 1
                case ("blockquote", true): quotes = max(0, quotes - 1)
                case ("li", false):
                    if var list = lists.popLast() {
                        current.marker = list.ordered ? "\(list.next). " : "• "
                        list.next += 1
                        lists.append(list)
                    } else {
                        current.marker = "• "
                    }
                    current.indent = max(0, lists.count - 1) + quotes
                case ("br", _): current.isTight = true
                case (_, false) where isHeading: current.isHeading = true
                default: break
                }
                current.indent = current.marker.isEmpty ? lists.count + quotes : current.indent
                continue
            }
            if skipping != nil {
                index = html.index(after: index)
                continue
            }
            let end = html[index...].firstIndex(of: "<") ?? html.endIndex
            var text = decodeEntities(String(html[index..<end]))
            text = String(text.map { $0.isWhitespace ? " " : $0 })
            current.text += text
            if link != nil { linkText += text }
            index = end
            if end < html.endIndex && html[end...].firstIndex(of: ">") == nil {
                current.text += decodeEntities(String(html[end...]))
                index = html.endIndex
            }
        }
        flush()
        return blocks
    }

    /// The value of `name="…"` (or `'…'`) in a tag's text.
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: name + "=") else { return nil }
        let rest = tag[range.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else {
            return String(rest.prefix(while: { !$0.isWhitespace && $0 != ">" }))
        }
        return String(rest.dropFirst().prefix(while: { $0 != quote }))
    }

    static let entities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "mdash": "—", "ndash": "–",
        "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "copy": "©", "reg": "®", "trade": "™", "deg": "°", "middot": "·", "bull": "•", "eacute": "é",
        "egrave": "è", "agrave": "à", "ccedil": "ç", "uuml": "ü", "ouml": "ö", "auml": "ä", "szlig": "ß",
        "ntilde": "ñ", "euro": "€", "times": "×",
    ]

    /// `text` with `&name;`, `&#NNN;` and `&#xHH;` replaced; unknown entities stay as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                out.append(character)
                index = text.index(after: index)
                continue
            }
            let name = text[text.index(after: index)..<semicolon]
            var decoded: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            } else {
                decoded = entities[String(name)]
            }
            if let decoded {
                out += decoded
                index = text.index(after: semicolon)
            } else {
                out.append(character)
                index = text.index(after: index)
            }
        }
        return out
    }
}
