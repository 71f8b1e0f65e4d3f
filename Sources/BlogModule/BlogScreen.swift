// How the blog screens are written: server text cleaned of control characters, reference fields
// named by name and id, long text wrapped to the output's width, and the result handed to the
// renderers as a screen with the items behind it (the renderers print the screen in table and
// expanded, the items in json, ndjson and csv).

import DeliveryKit
import OCEQCore
import OCEQShell
import TerminalMedia

/// Helpers shared by the blog commands.
enum BlogScreen {
    /// Columns to wrap at: the terminal's width, or 80 when output is not a terminal.
    @MainActor
    static func width(_ session: Session) -> Int {
        let width = session.output.width
        return width >= 10_000 ? 80 : max(width, 30)
    }

    /// The widest a column of prose gets (`read`'s title, byline, caption and body), however
    /// wide the terminal: longer lines are hard to read.
    static let measure = 100

    /// Columns to wrap prose at: the output's width (`width`), at most `measure`.
    @MainActor
    static func proseWidth(_ session: Session) -> Int { min(width(session), measure) }

    /// Whether the screen may use bold and dim: colour is on and the output is a terminal (the
    /// rule `read`'s body follows).
    @MainActor
    static func styled(_ session: Session) -> Bool { session.richTextOptions(width: 80).styles }

    /// Lines of (clean) `text`, each in `style` when `styled`; as they are otherwise.
    static func style(_ text: String, _ style: InlineStyle, when styled: Bool) -> String {
        guard styled else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { style.apply(to: String($0)) }
            .joined(separator: "\n")
    }

    /// An image that is not drawn, named on a line of its own (wrapped to `width`): `[what: name (id)]`.
    static func notDrawn(_ what: String, _ image: Asset, width: Int) -> String {
        wrapped("[" + what + ": " + named(image) + "]", indent: 0, width: width)
    }

    /// Server text for one line.
    static func clean(_ text: String) -> String { TerminalText.clean(text) }

    /// A string field of `item`, cleaned; nil when missing or empty.
    static func string(_ item: Asset, _ field: String) -> String? {
        guard let text = item.fields?[field]?.stringValue, !text.isEmpty else { return nil }
        return clean(text)
    }

    /// A reference field of `item` as an item (a stub or an expanded item); nil when missing.
    static func reference(_ item: Asset, _ field: String) -> Asset? {
        guard let value = item.fields?[field], !value.isNull else { return nil }
        return try? Asset(json: value)
    }

    /// A multi-valued reference field of `item` as items.
    static func references(_ item: Asset, _ field: String) -> [Asset] {
        (item.fields?[field]?.arrayValue ?? []).compactMap { try? Asset(json: $0) }
    }

    /// `name (id)` of a referenced item, cleaned.
    static func named(_ item: Asset) -> String {
        item.name.isEmpty ? clean(item.id) : clean(item.name) + " (" + clean(item.id) + ")"
    }

    /// `text` wrapped to `width` after `indent` spaces.
    static func wrapped(_ text: String, indent: Int, width: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        let lines = RichText.wrap(clean(text), width: width, first: pad, rest: pad)
        return lines.map { $0 + "\n" }.joined()
    }

    /// `count` and the noun, pluralised.
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// Numbered article entries: title, a byline (`Author · Mmm dd, yyyy` or another line), the
    /// description, each beside its thumbnail when there are thumbnails; rows are `@n`.
    static func articleEntries(
        _ articles: [Asset], width: Int, thumbnails: [BlogPicture?]? = nil,
        byline: (Asset) -> String?
    ) -> String {
        let numberWidth = String(articles.count).count
        let textWidth = BlogThumbnails.textWidth(width, thumbnails: thumbnails)
        var out = ""
        for (index, article) in articles.enumerated() {
            let number = String(index + 1)
            let pad = String(repeating: " ", count: numberWidth - number.count)
            let indent = numberWidth + 2
            var entry = pad + number + "  " + clean(article.name) + "\n"
            let parts = [byline(article), PostedDate.of(article)].compactMap { $0 }.filter { !$0.isEmpty }
            if !parts.isEmpty { entry += String(repeating: " ", count: indent) + parts.joined(separator: " · ") + "\n" }
            if !article.description.isEmpty { entry += wrapped(article.description, indent: indent, width: textWidth) }
            let thumbnail = thumbnails.flatMap { index < $0.count ? $0[index] : nil }
            out += (index == 0 ? "" : "\n") + BlogPicture.compose(thumbnail, entry)
        }
        return out
    }
}
