// The files a command wrote, as the text of its summary shows them (`download`, `mirror`): one
// `VERB: FILE` line each, the first 50, then how many more; json, ndjson and csv list them all.

/// The list of files written, in a summary's text.
package enum WrittenFiles {
    /// How many files the text names before it counts the rest.
    package static let shown = 50

    /// `verb: entry` lines for the first `shown` of `entries`, then `and N more files` when there
    /// are more; nothing for none.
    package static func lines(_ entries: [String], verb: String) -> String {
        var out = entries.prefix(shown).map { TerminalText.clean("\(verb): \($0)") + "\n" }.joined()
        if entries.count > shown {
            let more = entries.count - shown
            out += "and \(more) more file\(more == 1 ? "" : "s") (set format json lists them all)\n"
        }
        return out
    }
}
