// The text being parsed, kept as UTF-8 bytes. Every position in the language (tokens, AST nodes,
// diagnostics) is a byte offset into one `SourceText`; lines and columns are computed only when a
// diagnostic is shown, from a table of line starts built on first use.

/// A half-open range of UTF-8 byte offsets into a `SourceText`.
package struct SourceSpan: Sendable, Hashable, CustomStringConvertible {
    /// Offset of the first byte.
    package var start: Int
    /// Offset one past the last byte; equal to `start` for an empty (insertion point) span.
    package var end: Int

    /// A span from `start` up to, not including, `end`.
    package init(start: Int, end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// An empty span at `offset`: a position between two bytes.
    package static func at(_ offset: Int) -> SourceSpan { SourceSpan(start: offset, end: offset) }

    /// Number of bytes covered.
    package var length: Int { end - start }

    /// The smallest span covering both.
    package func union(_ other: SourceSpan) -> SourceSpan {
        SourceSpan(start: min(start, other.start), end: max(end, other.end))
    }

    package var description: String { "\(start)..<\(end)" }
}

/// A position as people count it: 1-based line and 1-based column in characters.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number.
    package var line: Int
    /// 1-based column, counted in characters (grapheme clusters) from the start of the line.
    package var column: Int

    /// A location at `line`, `column` (both 1-based).
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }
}

/// Source text with its UTF-8 bytes and a lazily built line table.
package struct SourceText: Sendable, Hashable {
    /// The text as given (invalid UTF-8 from `init(bytes:)` is repaired with U+FFFD).
    package let text: String
    /// The UTF-8 bytes of `text`; spans index into this array.
    package let bytes: [UInt8]

    /// Source from a string.
    package init(_ text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    /// Source from raw bytes; invalid UTF-8 is replaced so that offsets stay consistent.
    package init(bytes: some Collection<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        self.init(text)
    }

    /// The text covered by `span`, clamped to the source.
    package func text(in span: SourceSpan) -> String {
        let start = min(max(0, span.start), bytes.count)
        let end = min(max(start, span.end), bytes.count)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Offsets of the first byte of every line (the first is always 0).
    package var lineStarts: [Int] {
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        return starts
    }

    /// The line and column of a byte offset (offsets past the end map to the end of the text).
    package func location(of offset: Int) -> SourceLocation {
        location(of: offset, lineStarts: lineStarts)
    }

    /// As `location(of:)`, reusing a line table already computed.
    package func location(of offset: Int, lineStarts: [Int]) -> SourceLocation {
        let offset = min(max(0, offset), bytes.count)
        let lineIndex = SourceText.lineIndex(of: offset, lineStarts: lineStarts)
        let prefix = String(decoding: bytes[lineStarts[lineIndex]..<offset], as: UTF8.self)
        return SourceLocation(line: lineIndex + 1, column: prefix.count + 1)
    }

    /// The text of 1-based line `line`, without its line break.
    package func lineText(_ line: Int, lineStarts: [Int]) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    static func lineIndex(of offset: Int, lineStarts: [Int]) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
