// The files a command wrote, as the text of its summary shows them (`download`, `mirror`): one
// `VERB: FILE` line each, the first 50, then how many more; json, ndjson and csv list them all.

/// The list of files written, in a summary's text.
package enum WrittenFiles {
    /// How many files the text names before it counts the rest.
    package static let shown = 50

    /// `verb: entry` lines for the first `shown` of `entries`, then `and N more files` when there
    /// are more; nothing for none.
    package static func lines(_ entries: [String], verb: String) -> String {
        lines(count: entries.count, verb: verb) { entries[$0] }
    }

    /// The same for `count` entries, of which only the shown ones are made (`entry(i)`): a
    /// summary of 500 files formats 50 of them.
    package static func lines(count: Int, verb: String, entry: (Int) -> String) -> String {
        var out = ""
        for index in 0..<min(count, shown) { out += TerminalText.clean("\(verb): \(entry(index))") + "\n" }
        if count > shown {
            let more = count - shown
            out += "and \(more) more file\(more == 1 ? "" : "s") (set format json lists them all)\n"
        }
        return out
    }
}
