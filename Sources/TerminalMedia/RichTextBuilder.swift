// Turns the walk of an HTML document into terminal lines. Block elements end the current block;
// containers (list items, block quotes) give each line its prefix: a list item's marker on its
// first line and spaces under it after, a quote's bar on every line. Inline elements change the
// style of the text inside them; links are collected so that they can be hyperlinks or footnotes.
// Only the first `maxPrefixLevels` containers indent, so hostile nesting cannot push text off
// the screen or make each line cost its depth.

/// The HTML visitor that writes lines.
struct RichTextBuilder: HTMLVisitor {
    /// A list item or a quote: what it puts before its lines.
    struct Container {
        var first: String
        var rest: String
        var usedFirst = false
        var isItem: Bool
    }

    let options: RichTextOptions
    /// The lines written so far.
    var lines: [String] = []
    /// The links, numbered from 1 in footnotes.
    var links: [String] = []
    var runs: [Segment] = []
    var containers: [Container] = []
    /// Open lists: ordered or not, and the next number.
    var lists: [(ordered: Bool, next: Int)] = []
    var bold = 0
    var italic = 0
    var underline = 0
    var code = 0
    var preformatted = 0
    var heading: Int?
    /// The link of the open `<a>` elements (nil for an `<a>` that is not a usable link).
    var openLinks: [(index: Int?, href: String?, textStart: Int)] = []
    var table: TextTable?
    /// Nested tables inside the one being collected (their cells become text of its cell).
    var innerTables = 0
    /// The last block written was inside a list item.
    var lastInItem = false
    /// List items among the containers.
    var openItems = 0

    static let maxPrefixLevels = 8
    static let blocks: Set<String> = [
        "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "figure", "figcaption",
        "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table", "hr", "dl", "dt", "dd",
        "address", "details", "summary", "form", "fieldset", "center", "body", "html", "caption",
    ]

    init(options: RichTextOptions) {
        self.options = options
    }

    var style: InlineStyle {
        var style: InlineStyle = []
        if bold > 0 { style.insert(.bold) }
        if italic > 0 { style.insert(.italic) }
        if underline > 0 { style.insert(.underline) }
        if code > 0 || preformatted > 0 { style.insert(.code) }
        return style
    }

    mutating func enter(_ name: String, attribute: (String) -> String?) {
        // The table is changed in place (`table!`): a copy per event would make big tables quadratic.
        if table != nil {
            switch name {
            case "table": innerTables += 1
            case "tr" where innerTables == 0: table!.startRow()
            case "td" where innerTables == 0, "th" where innerTables == 0: table!.startCell(header: name == "th")
            case "br", "p", "div", "li": table!.append(" ")
            case "img": table!.append(" " + imageText(attribute("alt")) + " ")
            default: break
            }
            return
        }
        if RichTextBuilder.blocks.contains(name) { flush() }
        switch name {
        case "b", "strong": bold += 1
        case "i", "em", "cite", "var", "dfn": italic += 1
        case "u", "ins": underline += 1
        case "code", "kbd", "samp", "tt":
            if preformatted == 0 && code == 0 && !options.styles { runs.append(Segment(text: "`")) }
            code += 1
        case "pre": preformatted += 1
        case "h1", "h2", "h3", "h4", "h5", "h6": heading = Int(name.dropFirst())
        case "br": runs.append(Segment(text: "\n"))
        case "hr":
            let rule = String(repeating: "─", count: min(options.columns - prefixWidth, 40))
            write([prefix(first: true) + rule])
        case "img":
            runs.append(Segment(text: imageText(attribute("alt")), style: style.union(.dim), link: currentLink))
        case "a":
            let href = attribute("href").flatMap(SafeLink.url)
            var index: Int?
            if let href {
                if let existing = links.firstIndex(of: href) {
                    index = existing
                } else {
                    links.append(href)
                    index = links.count - 1
                }
            }
            openLinks.append((index, href, runs.count))
        case "ul", "ol":
            let start = name == "ol" ? attribute("start").flatMap { Int($0.prefix(9)) } ?? 1 : 1
            lists.append((name == "ol", start))
        case "li":
            var marker = "• "
            if var list = lists.popLast() {
                marker = list.ordered ? "\(list.next). " : ["• ", "◦ ", "▪ "][(lists.count) % 3]
                list.next += 1
                lists.append(list)
            }
            let pad = String(repeating: " ", count: TerminalCells.width(of: marker))
            containers.append(Container(first: marker, rest: pad, isItem: true))
            openItems += 1
        case "blockquote":
            containers.append(Container(first: "│ ", rest: "│ ", isItem: false))
        case "table":
            table = TextTable()
        default: break
        }
    }

    mutating func leave(_ name: String) {
        if table != nil {
            if name == "table" {
                if innerTables > 0 {
                    innerTables -= 1
                } else if let collecting = table {
                    table = nil
                    let rows = collecting.lines(width: options.columns - prefixWidth, styles: options.styles)
                    if !rows.isEmpty { write(rows.enumerated().map { prefix(first: $0.offset == 0) + $0.element }) }
                }
                return
            }
            if name == "td" || name == "th" { table!.append(" ") }
            return
        }
        if RichTextBuilder.blocks.contains(name) { flush() }
        switch name {
        case "b", "strong": bold = max(0, bold - 1)
        case "i", "em", "cite", "var", "dfn": italic = max(0, italic - 1)
        case "u", "ins": underline = max(0, underline - 1)
        case "code", "kbd", "samp", "tt":
            code = max(0, code - 1)
            if preformatted == 0 && code == 0 && !options.styles { runs.append(Segment(text: "`")) }
        case "pre": preformatted = max(0, preformatted - 1)
        case "h1", "h2", "h3", "h4", "h5", "h6": heading = nil
        case "a":
            guard let link = openLinks.popLast() else { break }
            guard let index = link.index, let href = link.href else { break }
            let text = runs[min(link.textStart, runs.count)...].map(\.text).joined()
            if !(options.styles && options.hyperlinks) && text.trimmingSpaces() != href {
                runs.append(Segment(text: "[\(index + 1)]", style: options.styles ? .dim : []))
            }
        case "ul", "ol": _ = lists.popLast()
        case "li", "blockquote":
            if let container = containers.popLast(), container.isItem { openItems -= 1 }
        default: break
        }
    }

    mutating func text(_ text: String) {
        if table != nil {
            table!.append(TerminalCells.clean(text))
            return
        }
        if preformatted > 0 {
            var kept = ""
            for scalar in text.unicodeScalars {
                if scalar == "\n" {
                    kept.unicodeScalars.append(scalar)
                } else if scalar == "\t" {
                    kept += "    "
                } else if !TerminalCells.isControl(scalar) {
                    kept.unicodeScalars.append(scalar)
                }
            }
            runs.append(Segment(text: kept, style: style, link: currentLink))
        } else {
            runs.append(Segment(text: TerminalCells.clean(text), style: style, link: currentLink))
        }
    }

    var currentLink: Int? {
        guard options.styles && options.hyperlinks else { return nil }
        return openLinks.last(where: { $0.index != nil })?.index
    }

    func imageText(_ alt: String?) -> String {
        let text = TerminalCells.clean(alt ?? "").split(separator: " ").joined(separator: " ")
        return text.isEmpty ? "[image]" : "[image: " + text + "]"
    }

    /// Columns the containers take.
    var prefixWidth: Int {
        containers.prefix(RichTextBuilder.maxPrefixLevels).reduce(0) { $0 + TerminalCells.width(of: $1.rest) }
    }

    /// The prefix of a block's first line (`first`) or of its other lines.
    func prefix(first: Bool) -> String {
        var out = ""
        for container in containers.prefix(RichTextBuilder.maxPrefixLevels) {
            out += first && !container.usedFirst ? container.first : container.rest
        }
        return out
    }

    /// Writes `blockLines` as one block: a blank line before it unless it starts a list item right
    /// after another item's text. The blank line carries the bars of the quotes that go on across
    /// it (those that have written a line already), so a quote of two paragraphs is one barred block.
    mutating func write(_ blockLines: [String]) {
        guard !blockLines.isEmpty else { return }
        let levels = containers.prefix(RichTextBuilder.maxPrefixLevels)
        let startsItem = levels.contains { $0.isItem && !$0.usedFirst }
        let inItem = openItems > 0
        if !lines.isEmpty && !(startsItem && lastInItem) {
            lines.append(levels.prefix { $0.usedFirst }.map(\.rest).joined().trimmingTrailingSpaces())
        }
        lines += blockLines
        for index in containers.indices.prefix(RichTextBuilder.maxPrefixLevels) { containers[index].usedFirst = true }
        lastInItem = inItem
    }

    /// Ends the document: a table still open is written, then the last block.
    mutating func finish() {
        if table != nil {
            innerTables = 0
            leave("table")
        }
        flush()
    }

    /// Ends the current block: its runs wrapped and written.
    mutating func flush() {
        defer { runs.removeAll(keepingCapacity: true) }
        guard runs.contains(where: { !$0.text.allSatisfy { $0 == " " || $0 == "\n" } }) else { return }
        var segments = runs
        if let heading {
            for index in segments.indices {
                if options.styles {
                    segments[index].style.insert(heading == 1 ? [.bold, .underline] : .bold)
                } else if heading <= 2 {
                    segments[index].text = segments[index].text.uppercased()
                }
            }
        }
        let available = max(options.columns - prefixWidth, 10)
        let wrapped =
            preformatted > 0
            ? TextWrapper.preformatted(segments, width: available, options: options, links: links)
            : TextWrapper.wrap(segments, width: available, options: options, links: links)
        write(wrapped.enumerated().map { prefix(first: $0.offset == 0) + $0.element })
    }
}

extension String {
    /// The string without spaces at either end.
    func trimmingSpaces() -> Substring {
        let start = firstIndex(where: { $0 != " " }) ?? endIndex
        let end = lastIndex(where: { $0 != " " }).map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
