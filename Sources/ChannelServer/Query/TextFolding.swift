import FoundationEssentials

/// Word splitting and folding shared by the query compiler and the SQL functions: the words come
/// from SQLite's own FTS5 `unicode61 remove_diacritics 2` tokenizer (`FTS5WordTokenizer`), the one
/// the index uses, so a value's words here are the index's words.
enum TextFolding {
    /// English stop words ignored by `co`, `mt`, `sm` and `default` (Lucene's classic list, the
    /// one OCM's search engine family uses).
    static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
        "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
        "will", "with",
    ]

    /// The folded words of `text` (`Café au lait` → `cafe`, `au`, `lait`), split and folded by the
    /// index's tokenizer. With `wildcards`, `*` and `?` count as word characters (for `mt` patterns).
    static func words(_ text: String, wildcards: Bool = false) -> [String] {
        (wildcards ? FTS5WordTokenizer.patterns : FTS5WordTokenizer.words).tokens(text)
    }

    /// The folded words of a value, stop words removed.
    static func searchWords(_ text: String, wildcards: Bool = false) -> [String] {
        var seen: Set<String> = []
        return words(text, wildcards: wildcards).filter {
            !stopWords.contains($0) && seen.insert($0).inserted
        }
    }

    /// A term quoted for an FTS5 MATCH expression.
    static func ftsQuoted(_ term: String) -> String {
        "\"" + term.replacingAllBytes(of: "\"", with: "\"\"") + "\""
    }

    /// Levenshtein distance, stopping early once it is certain to exceed `limit`.
    static func editDistance<C: Equatable>(_ a: [C], _ b: [C], limit: Int = .max) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            var best = row[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                best = min(best, row[j])
            }
            if best > limit { return limit + 1 }
            swap(&previous, &row)
        }
        return previous[b.count]
    }

    /// The most edits `sm` allows for a word: none up to 2 characters, 1 for 3, else 2.
    static func fuzzyEdits(forLength length: Int) -> Int {
        length <= 2 ? 0 : (length == 3 ? 1 : 2)
    }

    /// Glob match of one word: `?` is any one character, `*` any run (possibly empty).
    static func globMatches(_ pattern: [Unicode.Scalar], _ word: [Unicode.Scalar]) -> Bool {
        var p = 0
        var w = 0
        var star = -1
        var mark = 0
        while w < word.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == word[w] {
                p += 1
                w += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = w
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                w = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// The separator between the values of a multivalued field in the full-text index.
    static let valueSeparator = "\u{2029}"

    /// True if the folded, stop-word-free words of the plain text of `value` contain `pattern`
    /// (folded words with wildcards) as a consecutive run.
    static func phraseMatches(_ value: String, pattern: [[Unicode.Scalar]]) -> Bool {
        guard !pattern.isEmpty else { return false }
        let words = searchWordsKeepingRepeats(plainText(value)).map { Array($0.unicodeScalars) }
        guard words.count >= pattern.count else { return false }
        for start in 0...(words.count - pattern.count) {
            var all = true
            for k in 0..<pattern.count where !globMatches(pattern[k], words[start + k]) {
                all = false
                break
            }
            if all { return true }
        }
        return false
    }

    /// True if some folded word of the plain text of `value` is one of `words`.
    static func containsAnyWord(_ value: String, _ words: Set<String>) -> Bool {
        TextFolding.words(plainText(value)).contains { words.contains($0) }
    }

    /// True if some folded word of the plain text of `value` is within `fuzzyEdits` edits of one
    /// of `words`.
    static func containsSimilarWord(_ value: String, _ words: [String]) -> Bool {
        let targets = words.map { (Array($0.unicodeScalars), fuzzyEdits(forLength: $0.unicodeScalars.count)) }
        for word in TextFolding.words(plainText(value)) {
            let scalars = Array(word.unicodeScalars)
            for (target, edits) in targets where editDistance(scalars, target, limit: edits) <= edits {
                return true
            }
        }
        return false
    }

    /// Folded words without stop words, keeping repeats and order.
    static func searchWordsKeepingRepeats(_ text: String) -> [String] {
        words(text).filter { !stopWords.contains($0) }
    }

    /// Text of an HTML or rich-text value with tags removed and common entities decoded, for
    /// full-text indexing and phrase checks; text without `<` is returned unchanged.
    static func plainText(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String in
            guard bytes.contains(UInt8(ascii: "<")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "<") {
                    // Skip the tag; a lone '<' with no closing '>' is kept.
                    var j = i + 1
                    while j < bytes.count, bytes[j] != UInt8(ascii: ">") { j += 1 }
                    if j < bytes.count {
                        out.append(UInt8(ascii: " "))
                        i = j + 1
                        continue
                    }
                } else if b == UInt8(ascii: "&") {
                    var j = i + 1
                    while j < bytes.count, j - i <= 10, bytes[j] != UInt8(ascii: ";"), bytes[j] != UInt8(ascii: "&"),
                        bytes[j] != UInt8(ascii: "<"), bytes[j] > 0x20
                    {
                        j += 1
                    }
                    if j < bytes.count, bytes[j] == UInt8(ascii: ";"), j > i + 1 {
                        let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
                        out.append(contentsOf: decodeEntity(name).utf8)
                        i = j + 1
                        continue
                    }
                }
                out.append(b)
                i += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    private static func decodeEntity(_ name: String) -> String {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X"), let v = UInt32(name.dropFirst(2), radix: 16),
                let s = Unicode.Scalar(v)
            {
                return String(Character(s))
            }
            if name.hasPrefix("#"), let v = UInt32(name.dropFirst()), let s = Unicode.Scalar(v) {
                return String(Character(s))
            }
            return " "
        }
    }
}
