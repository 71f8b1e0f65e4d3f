// "Did you mean" by edit distance: the optimal-string-alignment distance (insertions, deletions,
// substitutions and swaps of two neighbours each cost 1), compared without regard to case. A
// candidate is offered only when it is close for the word's length: one edit for words of up to
// three characters, two for longer ones; ties go to the longer common prefix, then to the candidate
// listed first. A word of three or more characters that no candidate is close to but that begins
// exactly one of them (`updated` of `updatedDate`, `published` of `published_date`) is offered that one.

/// Finds the closest of a list of words.
package enum Suggestions {
    /// The candidate closest to `word`, if one is close enough; nil when `word` is one of them.
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = Array(word.lowercased().unicodeScalars)
        guard !lowered.isEmpty, lowered.count <= 64 else { return nil }
        let limit = lowered.count <= 3 ? 1 : 2
        var best: (candidate: String, distance: Int, prefix: Int)?
        var extensions: [String] = []
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars)
            if lowered.count >= 3, other.count > lowered.count, other.starts(with: lowered),
                !extensions.contains(candidate)
            {
                extensions.append(candidate)
            }
            guard abs(other.count - lowered.count) <= limit else { continue }
            let distance = editDistance(lowered, other)
            if distance == 0 && candidate == word { return nil }
            guard distance <= limit else { continue }
            let prefix = zip(lowered, other).prefix { $0 == $1 }.count
            if let current = best,
                current.distance < distance || (current.distance == distance && current.prefix >= prefix)
            {
                continue
            }
            best = (candidate, distance, prefix)
        }
        return best?.candidate ?? (extensions.count == 1 ? extensions[0] : nil)
    }

    /// The optimal-string-alignment distance between two sequences.
    package static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let width = b.count + 1
        var previous2 = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
