/// What Tab does with the completer's candidates, decided apart from libedit so that it can be tested.
///
/// The completer returns whole words that may replace *the word before the cursor*: the characters back to the
/// nearest delimiter (`EditLineReader.wordDelimiters`). One candidate replaces the word and adds a space
/// (none after a candidate ending in `/`, `=` or `.`, where typing goes on); several replace it by their
/// longest common prefix when that is longer than the word, else they are listed; none beeps.
public enum CompletionAction: Equatable, Sendable {
    /// Delete `deleting` characters (Unicode scalars, as libedit counts them) before the cursor, then insert
    /// `text`.
    case replace(deleting: Int, text: String)
    /// Show these candidates under the line.
    case list([String])
    /// Nothing to complete.
    case beep

    /// Characters that end a word for completion unless told otherwise.
    public static let defaultDelimiters: Set<Character> = [
        " ", "\t", "\n", "=", "(", ")", "[", "]", "{", "}", ",", ";", "\"", "'", "<", ">", "!", "|", "&",
    ]

    /// The word before the cursor in `beforeCursor`.
    public static func word(before beforeCursor: String, delimiters: Set<Character> = defaultDelimiters) -> Substring {
        let start = beforeCursor.lastIndex(where: { delimiters.contains($0) }).map(beforeCursor.index(after:))
        return beforeCursor[(start ?? beforeCursor.startIndex)...]
    }

    /// The action for `candidates`, given the text before the cursor.
    public static func plan(
        beforeCursor: String, candidates: [String], delimiters: Set<Character> = defaultDelimiters
    ) -> CompletionAction {
        var seen = Set<String>()
        let unique = candidates.filter { !$0.isEmpty && seen.insert($0).inserted }
        let word = self.word(before: beforeCursor, delimiters: delimiters)
        let deleting = word.unicodeScalars.count
        switch unique.count {
        case 0:
            return .beep
        case 1:
            let candidate = unique[0]
            let space = candidate.hasSuffix("/") || candidate.hasSuffix("=") || candidate.hasSuffix(".") ? "" : " "
            return .replace(deleting: deleting, text: candidate + space)
        default:
            let prefix = commonPrefix(unique)
            if prefix.count > word.count { return .replace(deleting: deleting, text: prefix) }
            return .list(unique)
        }
    }

    /// The longest prefix, in whole characters, that all of `strings` share.
    public static func commonPrefix(_ strings: [String]) -> String {
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
    public static func columns(_ candidates: [String], width: Int) -> String {
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
