/// What Tab does with the completer's candidates, decided apart from libedit so that it can be tested.
///
/// The completer returns whole words that may replace *the word before the cursor*: the characters back to the
/// nearest delimiter (`defaultDelimiters`), or the word a `Completion` names. One candidate replaces the word and adds a space
/// (none after a candidate ending in `/`, `=` or `.`, or one that says typing goes on); several replace it by their
/// longest common prefix when that is longer than the word, else they are listed; none beeps.
package enum CompletionAction: Equatable, Sendable {
    /// Delete `deleting` characters (Unicode scalars, as libedit counts them) before the cursor, then insert
    /// `text`.
    case replace(deleting: Int, text: String)
    /// Show these candidates under the line.
    case list([String])
    /// Show these candidates (perhaps none) under the line, and that the channel has not answered yet.
    case waiting([String])
    /// Nothing to complete.
    case beep

    /// What Tab shows under the candidates while the channel has not answered.
    package static let waitingNote = "(still asking the channel; Tab again for the rest)"

    /// Characters that end a word for completion unless told otherwise.
    package static let defaultDelimiters: Set<Character> = [
        " ", "\t", "\n", "=", "(", ")", "[", "]", "{", "}", ",", ";", "\"", "'", "<", ">", "!", "|", "&",
    ]

    /// The word before the cursor in `beforeCursor`.
    package static func word(before beforeCursor: String, delimiters: Set<Character> = defaultDelimiters) -> Substring {
        let start = beforeCursor.lastIndex(where: { delimiters.contains($0) }).map(beforeCursor.index(after:))
        return beforeCursor[(start ?? beforeCursor.startIndex)...]
    }

    /// The action for `candidates`, given the text before the cursor.
    package static func plan(
        beforeCursor: String, candidates: [String], delimiters: Set<Character> = defaultDelimiters
    ) -> CompletionAction {
        let word = self.word(before: beforeCursor, delimiters: delimiters)
        return plan(Completion(word: String(word), candidates: candidates.map { CompletionCandidate($0) }))
    }

    /// The action for `completion`: its candidates replace its `word`, which ends at the cursor. Several
    /// candidates are listed by their `display` text; their common prefix is inserted first only when the
    /// completion allows it (not for names that insert ids).
    package static func plan(_ completion: Completion) -> CompletionAction {
        var seen = Set<String>()
        let unique = completion.candidates.filter { !$0.text.isEmpty && seen.insert($0.text).inserted }
        let word = completion.word
        let deleting = word.unicodeScalars.count
        switch unique.count {
        case 0:
            return completion.waiting ? .waiting([]) : .beep
        case 1:
            let candidate = unique[0].text
            let goesOn =
                unique[0].goesOn || candidate.hasSuffix("/") || candidate.hasSuffix("=") || candidate.hasSuffix(".")
            let space = goesOn ? "" : " "
            return .replace(deleting: deleting, text: candidate + space)
        default:
            if completion.insertsCommonPrefix {
                let prefix = commonPrefix(unique.map(\.text))
                if prefix.count > word.count { return .replace(deleting: deleting, text: prefix) }
            }
            return completion.waiting ? .waiting(unique.map(\.display)) : .list(unique.map(\.display))
        }
    }

    /// The longest prefix, in whole characters, that all of `strings` share.
    package static func commonPrefix(_ strings: [String]) -> String {
        guard let first = strings.first else { return "" }
        var prefix = first[...]
        for string in strings.dropFirst() {
            var end = prefix.startIndex
            var other = string.startIndex
            while end < prefix.endIndex, other < string.endIndex, prefix[end] == string[other] {
                end = prefix.index(after: end)
                other = string.index(after: other)
            }
            prefix = prefix[..<end]
        }
        return String(prefix)
    }

    /// Lays `candidates` out in columns no wider than `width`, one row per line, each line ending in a newline.
    package static func columns(_ candidates: [String], width: Int) -> String {
        guard !candidates.isEmpty else { return "" }
        let cell = (candidates.map(\.count).max() ?? 0) + 2
        let perRow = max(1, max(width, cell) / cell)
        let rows = (candidates.count + perRow - 1) / perRow
        var out = ""
        for row in 0..<rows {
            var line = ""
            for column in 0..<perRow {
                let index = column * rows + row
                guard index < candidates.count else { break }
                let text = candidates[index]
                line += text
                if column + 1 < perRow, (column + 1) * rows + row < candidates.count {
                    line += String(repeating: " ", count: cell - text.count)
                }
            }
            out += line + "\n"
        }
        return out
    }
}

/// One thing Tab may insert: the text that replaces the word, and what the list of candidates shows for it.
package struct CompletionCandidate: Equatable, Sendable {
    /// Inserted in place of the word (an item's id, a field's name, a path).
    package var text: String
    /// Shown when several candidates are listed (an item's name, a row's number and name).
    package var display: String
    /// Whether typing usually goes on right after it (a field path that may go deeper), so that no space is
    /// added when it is the only candidate.
    package var goesOn: Bool

    /// A candidate inserting `text` and showing `display` (by default the text itself).
    package init(_ text: String, display: String? = nil, goesOn: Bool = false) {
        self.text = text
        self.display = display ?? text
        self.goesOn = goesOn
    }
}

/// What the completer found for the cursor's position: the word before the cursor that a candidate replaces,
/// and the candidates.
package struct Completion: Equatable, Sendable {
    /// The text just before the cursor that a chosen candidate replaces (may be empty).
    package var word: String
    /// The candidates, in the order to list them.
    package var candidates: [CompletionCandidate]
    /// Whether several candidates may first be narrowed to their common prefix (false when the word is matched
    /// against `display` while `text` is inserted, as for names that insert ids).
    package var insertsCommonPrefix: Bool
    /// True when a channel lookup is still running: the candidates may be only part of the answer.
    package var waiting = false

    /// A completion of `word` by `candidates`.
    package init(word: String, candidates: [CompletionCandidate], insertsCommonPrefix: Bool = true) {
        self.word = word
        self.candidates = candidates
        self.insertsCommonPrefix = insertsCommonPrefix
    }

    /// Nothing to offer.
    package static let none = Completion(word: "", candidates: [])
}
