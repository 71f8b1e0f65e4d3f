// What a `download` did, printed to stdout when it ends (always, terminal or not): counts of
// downloaded, skipped and failed files with the bytes written, then one line per item that was
// left out or failed, with the reason. No timings, so scripts and golden files can compare it.
//
//   download to out: 5 items
//     downloaded  2 files, 275.1 KB
//     skipped     1 file already complete
//     skipped     1 item that is not a digital asset
//     failed      1 file
//   failed: bad.jpg (CONT...): HTTP 503 Service Unavailable from GET ...
//   skipped: About coffee (CORE...): a content item (Article), not a digital asset: it has no native file

import OCEQShell

/// The outcome of one `download`.
struct DownloadSummary {
    /// One item or file and what happened to it.
    struct Line {
        var name: String
        var id: String
        var reason: String
    }

    /// The folder as the user wrote it.
    var folder: String
    /// Items the target named.
    var items = 0
    /// Files transferred and their bytes.
    var downloaded = 0
    var downloadedBytes: Int64 = 0
    /// Files the server said were unchanged.
    var complete = 0
    /// Items that are not files of the kind asked for.
    var notFiles: [Line] = []
    /// Files that failed.
    var failures: [Line] = []
    /// A manifest that could not be saved.
    var manifestProblem: String?

    /// True when something failed (the statement then fails).
    var failed: Bool { !failures.isEmpty || manifestProblem != nil }

    /// The summary text.
    var text: String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        var out = "download to \(folder): \(plural(items, "item"))\n"
        out += "  downloaded  \(plural(downloaded, "file")), \(ByteCount.text(downloadedBytes))\n"
        if complete > 0 { out += "  skipped     \(plural(complete, "file")) already complete\n" }
        if !notFiles.isEmpty {
            out += "  skipped     \(plural(notFiles.count, "item")) that \(notFiles.count == 1 ? "is" : "are") "
            out += "not a digital asset\n"
        }
        if !failures.isEmpty { out += "  failed      \(plural(failures.count, "file"))\n" }
        for line in failures { out += "failed: \(describe(line))\n" }
        for line in notFiles { out += "skipped: \(describe(line))\n" }
        if let manifestProblem { out += "failed: the manifest was not saved: \(manifestProblem)\n" }
        return TerminalText.cleanKeepingLines(out)
    }

    func describe(_ line: Line) -> String {
        TerminalText.clean("\(line.name) (\(line.id)): \(line.reason)")
    }
}
