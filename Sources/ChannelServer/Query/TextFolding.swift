import Foundation

/// Word splitting and case/diacritic folding shared by the query compiler and the index builder,
/// kept in step with the FTS5 `unicode61 remove_diacritics 2` tokenizer the index uses.
enum TextFolding {
    /// English stop words ignored by `co`, `mt`, `sm` and `default` (Lucene's classic list, the
    /// one OCM's search engine family uses).
    static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
        "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
        "will", "with",
    ]

    /// True for scalars that belong to a word (letters, digits, marks, private use), as unicode61.
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            switch s {
            case "a"..."z", "A"..."Z", "0"..."9": return true
            default: return false
            }
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse, .nonspacingMark, .spacingMark,
            .enclosingMark:
            return true
        default:
            return false
        }
    }

    /// The words of `text`, split on anything that is not a letter, digit or mark. With
    /// `wildcards`, `*` and `?` count as word characters (for `mt` patterns).
    static func words(_ text: String, wildcards: Bool = false) -> [String] {
        var result: [String] = []
        var word = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if isWordScalar(s) || (wildcards && (s == "*" || s == "?")) {
                word.append(s)
            } else if !word.isEmpty {
                result.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { result.append(String(word)) }
        return result
    }

    /// Lower-case with diacritics removed (`Café` → `cafe`), as the FTS5 tokenizer folds terms.
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        let decomposed = text.decomposedStringWithCanonicalMapping.unicodeScalars
        var kept = String.UnicodeScalarView()
        for s in decomposed where s.properties.generalCategory != .nonspacingMark { kept.append(s) }
        return String(kept).lowercased()
    }

    /// The folded words of a value, stop words removed.
    static func searchWords(_ text: String, wildcards: Bool = false) -> [String] {
        var seen: Set<String> = []
        return words(text, wildcards: wildcards).map(fold).filter {
            !stopWords.contains($0) && seen.insert($0).inserted
        }
    }

    /// A term quoted for an FTS5 MATCH expression.
    static func ftsQuoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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

    /// The separator between the values of a multivalued field in the full-text index: a phrase
    /// never spans it.
    static let valueSeparator = "\u{2029}"

    /// True if the folded, stop-word-free words of some value of `text` contain `pattern` (folded
    /// words with wildcards) as a consecutive run.
    static func phraseMatches(_ text: String, pattern: [[Unicode.Scalar]]) -> Bool {
        guard !pattern.isEmpty else { return false }
        for value in text.components(separatedBy: valueSeparator) {
            let words = searchWordsKeepingRepeats(value).map { Array($0.unicodeScalars) }
            guard words.count >= pattern.count else { continue }
            for start in 0...(words.count - pattern.count) {
                var all = true
                for k in 0..<pattern.count where !globMatches(pattern[k], words[start + k]) {
                    all = false
                    break
                }
                if all { return true }
            }
        }
        return false
    }

    /// Folded words without stop words, keeping repeats and order.
    static func searchWordsKeepingRepeats(_ text: String) -> [String] {
        words(text).map(fold).filter { !stopWords.contains($0) }
    }

    /// Text of an HTML or rich-text value with tags removed and common entities decoded, for
    /// full-text indexing; other text unchanged.
    static func plainText(_ text: String) -> String {
        guard text.contains("<"), text.contains(">") else { return text }
        var out = String.UnicodeScalarView()
        var inTag = false
        var entity: String.UnicodeScalarView?
        for s in text.unicodeScalars {
            if inTag {
                if s == ">" {
                    inTag = false
                    out.append(" ")
                }
                continue
            }
            if var e = entity {
                if s == ";" || e.count > 10 {
                    out.append(contentsOf: decodeEntity(String(e)).unicodeScalars)
                    entity = nil
                    if s != ";" { out.append(s) }
                } else if s == "<" || s.properties.isWhitespace {
                    out.append("&")
                    out.append(contentsOf: e)
                    entity = nil
                    if s == "<" { inTag = true } else { out.append(s) }
                } else {
                    e.append(s)
                    entity = e
                }
                continue
            }
            switch s {
            case "<": inTag = true
            case "&": entity = String.UnicodeScalarView()
            default: out.append(s)
            }
        }
        if let e = entity {
            out.append("&")
            out.append(contentsOf: e)
        }
        return String(out)
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
