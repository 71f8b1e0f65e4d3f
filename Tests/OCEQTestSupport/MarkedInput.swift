// Position markers inside test inputs, after swift-syntax's `extractMarkers`: `⟦` marks where the
// expected span starts and an optional `⟧` where it ends. Both are removed before parsing, and
// their positions are returned as UTF-8 byte offsets into what remains.

/// Input with its markers removed, and where they were.
public struct MarkedInput: Sendable {
    /// The input without markers.
    public var text: String
    /// Byte offset of `⟦`.
    public var start: Int
    /// Byte offset of `⟧`, if given.
    public var end: Int?

    /// Reads the markers out of `marked`.
    public init(_ marked: String) {
        var text = ""
        var start: Int?
        var end: Int?
        for character in marked {
            switch character {
            case "⟦": start = text.utf8.count
            case "⟧": end = text.utf8.count
            default: text.append(character)
            }
        }
        precondition(start != nil, "no ⟦ marker in \(marked)")
        self.text = text
        self.start = start ?? 0
        self.end = end
    }
}
