/// How `RichText` draws HTML for a terminal.
package struct RichTextOptions: Sendable, Equatable {
    /// Columns to wrap at (at least 20 are used).
    package var width: Int
    /// Bold, italic, underline and code colour as SGR sequences; off gives plain text.
    package var styles: Bool
    /// Links as OSC 8 hyperlinks (only together with `styles`); otherwise numbered footnotes.
    package var hyperlinks: Bool
    /// Bytes of HTML rendered at most; the rest is cut with a note saying so.
    package var maxInputBytes: Int

    /// Options for `width` columns; plain text with footnotes unless `styles` and `hyperlinks` say so.
    package init(width: Int, styles: Bool = false, hyperlinks: Bool = false, maxInputBytes: Int = 4 << 20) {
        self.width = width
        self.styles = styles
        self.hyperlinks = hyperlinks
        self.maxInputBytes = maxInputBytes
    }

    /// The width actually wrapped at.
    var columns: Int { max(width, 20) }
}

/// Inline emphasis of a run of text.
package struct InlineStyle: OptionSet, Hashable, Sendable {
    /// The bits of the styles.
    package let rawValue: UInt8
    /// A style of `rawValue`'s bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bold.
    package static let bold = InlineStyle(rawValue: 1)
    /// Italic.
    package static let italic = InlineStyle(rawValue: 2)
    /// Underlined.
    package static let underline = InlineStyle(rawValue: 4)
    /// Code colour.
    package static let code = InlineStyle(rawValue: 8)
    /// Dim (faint).
    package static let dim = InlineStyle(rawValue: 16)

    /// The SGR sequence that turns this style on; empty for none.
    var sequence: String {
        var codes: [String] = []
        if contains(.bold) { codes.append("1") }
        if contains(.dim) { codes.append("2") }
        if contains(.italic) { codes.append("3") }
        if contains(.underline) { codes.append("4") }
        if contains(.code) { codes.append("36") }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// Turns every style off.
    static let reset = "\u{1B}[0m"

    /// `text` (already clean of control characters) in this style, reset after it; as it is for
    /// no style or empty text.
    package func apply(to text: String) -> String {
        let on = sequence
        return on.isEmpty || text.isEmpty ? text : on + text + InlineStyle.reset
    }
}

/// A run of text with one style and at most one link (an index into the document's links).
struct Segment {
    var text: String
    var style: InlineStyle = []
    var link: Int?
}
