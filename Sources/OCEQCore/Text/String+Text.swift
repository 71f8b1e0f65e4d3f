extension String {
    /// The string without leading and trailing whitespace.
    package var trimmedWhitespace: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    /// The string on one line: line breaks and other control characters become spaces.
    package var singleLine: String {
        String(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }

    /// At most `limit` characters, with an ellipsis when cut.
    package func truncated(to limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }
}
