// What a `download` did, printed to stdout when it ends (always, terminal or not): counts of
// downloaded, skipped and failed files with the bytes written, then one line per item that was
// left out or failed, with the reason. No timings, so scripts and golden files can compare it.
// Files cancelled by Ctrl-C are counted, not listed. The command returns the text as a screen with
// the same facts as one JSON document behind it, which json, ndjson and csv show.
//
//   download to out: 5 items
//     downloaded  2 files, 275.1 KB
//     skipped     1 file already complete
//     skipped     1 item that is not a digital asset
//     failed      1 file
//   failed: bad.jpg (CONT...): injected fault: 503 (HTTP 503 Service Unavailable from GET ...)
//   skipped: About coffee (CORE...): a content item (Article), not a digital asset: it has no native file
//   wrote: photo.jpg (CONT...), 137.6 KB
//   wrote: photo (2).jpg (CONT...), 137.5 KB
//
// The files written are listed by name in the folder (`photo (2).jpg` when the name was taken),
// sorted, in every format (`files` in JSON; the text names the first 50, `WrittenFiles`).

import DeliveryKit
import OCEQCore
import OCEQShell

/// The outcome of one `download`.
struct DownloadSummary {
    /// One item or file and what happened to it.
    struct Line {
        var name: String
        var id: String
        var reason: String
    }

    /// A file written, by its name in the folder.
    struct File {
        var file: String
        var id: String
        var bytes: Int64
    }

    /// The folder as the user wrote it.
    var folder: String
    /// Items the target named.
    var items = 0
    /// Files transferred and their bytes.
    var downloaded = 0
    var downloadedBytes: Int64 = 0
    /// The files written, as they completed.
    var written: [File] = []
    /// Files the server said were unchanged.
    var complete = 0
    /// Items that are not files of the kind asked for.
    var notFiles: [Line] = []
    /// Files that failed.
    var failures: [Line] = []
    /// Files not finished because the statement was interrupted.
    var cancelled = 0
    /// A manifest that could not be saved.
    var manifestProblem: String?

    /// True when something failed (the statement then fails).
    var failed: Bool { !failures.isEmpty || cancelled > 0 || manifestProblem != nil }

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
        if cancelled > 0 { out += "  cancelled   \(plural(cancelled, "file")) (interrupted)\n" }
        for line in failures { out += "failed: \(describe(line))\n" }
        for line in notFiles { out += "skipped: \(describe(line))\n" }
        if let manifestProblem { out += "failed: the manifest was not saved: \(manifestProblem)\n" }
        let files = files
        out += WrittenFiles.lines(count: files.count, verb: "wrote") { index in
            "\(files[index].file) (\(files[index].id)), \(ByteCount.text(files[index].bytes))"
        }
        return TerminalText.cleanKeepingLines(out)
    }

    /// The summary as one JSON object (`folder`, `items`, `downloaded`, `bytes`, `skipped`,
    /// `cancelled`, `notDigitalAssets` and `failures` with `name`, `id`, `reason`, and `files` with
    /// `file`, `id`, `bytes`).
    var json: JSON {
        func lines(_ list: [Line]) -> JSON {
            .array(
                list.map { .object(["name": .string($0.name), "id": .string($0.id), "reason": .string($0.reason)]) })
        }
        var object: [String: JSON] = [
            "folder": .string(folder), "items": .int(items), "downloaded": .int(downloaded),
            "bytes": .int(Int(downloadedBytes)), "skipped": .int(complete), "cancelled": .int(cancelled),
            "notDigitalAssets": lines(notFiles), "failures": lines(failures),
            "files": .array(
                files.map { .object(["file": .string($0.file), "id": .string($0.id), "bytes": .int(Int($0.bytes))]) }),
        ]
        if let manifestProblem { object["manifestProblem"] = .string(manifestProblem) }
        return .object(object)
    }

    /// The files written, sorted by name (the order they completed in varies from run to run).
    var files: [File] { written.sorted { $0.file < $1.file } }

    /// The summary as a command's result: the text for people, the JSON object as its data.
    var result: CommandResult { .screen(text, data: .document(json)) }

    func describe(_ line: Line) -> String {
        TerminalText.clean("\(line.name) (\(line.id)): \(line.reason)")
    }
}
