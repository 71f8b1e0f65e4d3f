extension StringProtocol {
    /// The string without leading and trailing whitespace, line breaks included (Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, which OCEQCore's users do without Foundation).
    package var trimmedWhitespace: String {
        trimmed { $0.properties.isWhitespace || $0 == "\u{200B}" }
    }

    /// The string without leading and trailing spaces and tabs (Unicode's space separators and U+0009: Foundation's
    /// `trimmingCharacters(in: .whitespaces)`); line breaks stay. Like Foundation's sets, both trims also take the
    /// zero width space (U+200B, a space separator in Unicode before 4.0.1).
    package var trimmedSpaces: String {
        trimmed { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// The string without the scalars at either end that `isTrimmed` accepts. Scalars, as Foundation trims,
    /// not characters: a combining mark after a trimmed space stays, and no grapheme breaking is needed (this
    /// runs on every header of every download).
    private func trimmed(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = Substring(self).unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isTrimmed(scalars[start]) { scalars.formIndex(after: &start) }
        while start < end {
            let last = scalars.index(before: end)
            guard isTrimmed(scalars[last]) else { break }
            end = last
        }
        return String(scalars[start..<end])
    }
}

extension String {
    /// The string in Unicode's composed form (NFC), by the standard library's own normalization (the tables
    /// `String` compares with): what Foundation's `precomposedStringWithCanonicalMapping` returns.
    package var composed: String {
        String(decoding: _nfcCodeUnits, as: UTF8.self)
    }

    /// The string on one line: line breaks and other control characters become spaces.
    package var singleLine: String {
        String(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }

    /// At most `limit` characters, with an ellipsis when cut.
    package func truncated(to limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "…"
    }

    /// `lowercased()`, with ASCII text (header names and file names, in practice) lowered byte by
    /// byte without Unicode's case tables (1 800 instructions a file name), and returned as it is
    /// when it has no capital letter.
    package var quickLowercased: String {
        // Over the contiguous bytes: iterating `utf8` made it 2.5 K instructions a file name, 0.9 K now.
        var text = self
        return text.withUTF8 { bytes -> String in
            var capitals = false
            for byte in bytes {
                if byte >= 0x80 { return lowercased() }
                if byte &- UInt8(ascii: "A") < 26 { capitals = true }
            }
            guard capitals else { return self }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for index in bytes.indices {
                    let byte = bytes[index]
                    buffer[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                }
                return bytes.count
            }
        }
    }
}
