import DeliveryKit
import OCEQCore
import OCEQShell

/// What a mirror run did, for the closing summary and the exit code.
struct MirrorSummary {
    /// DIR.
    var target: String
    var itemsSeen = 0
    var itemsWritten = 0
    var itemsUnchanged = 0
    var filesDownloaded = 0
    /// Native files already complete on disk (not fetched again).
    var filesComplete = 0
    /// Native files that could not be fetched.
    var filesFailed = 0
    /// Bytes received over the network for native files.
    var bytes: Int64 = 0
    /// Items not mirrored because the server's id or type cannot be a path component.
    var skipped: [String] = []
    /// Items fetched because the selection refers to them.
    var referencesAdded = 0
    /// Item files removed because a full mirror no longer found the items on the channel.
    var itemsRemoved = 0
    /// Taxonomies written or unchanged.
    var taxonomies = 0
    /// Taxonomy files removed (no longer on the channel).
    var taxonomiesRemoved = 0
    /// `Type/ID` of items listed but not written this run (failed writes), kept on disk.
    var skippedFiles: Set<String> = []
    /// Everything that failed.
    var failures: [String] = []
    /// The native files fetched this run, relative to DIR, as they completed.
    var fetched: [String] = []
    var seconds = 0.0

    /// True when nothing failed and nothing was skipped.
    var succeeded: Bool { failures.isEmpty && skipped.isEmpty }

    /// `mirrored 146 items (146 written, 0 unchanged), 74 files (74 fetched, 0 already complete,
    /// 6.6 MB) to DIR in 1.2 s`, then the skipped and failed ones.
    var text: String {
        let files = filesDownloaded + filesComplete + filesFailed
        var out =
            "mirrored \(itemsWritten + itemsUnchanged) item\(itemsWritten + itemsUnchanged == 1 ? "" : "s") "
            + "(\(itemsWritten) written, \(itemsUnchanged) unchanged), "
            + "\(files) file\(files == 1 ? "" : "s") (\(filesDownloaded) fetched, \(filesComplete) already complete, "
            + (filesFailed > 0 ? "\(filesFailed) failed, " : "") + "\(ByteCount.text(bytes))) "
            + "to \(target) in \(Self.seconds(seconds))\n"
        if referencesAdded > 0 {
            out +=
                referencesAdded == 1
                ? "1 of the items is not in the selection but referred to by it\n"
                : "\(referencesAdded) of the items are not in the selection but referred to by it\n"
        }
        if taxonomies > 0 {
            out +=
                "\(taxonomies) taxonom\(taxonomies == 1 ? "y" : "ies") with \(taxonomies == 1 ? "its" : "their") categories\n"
        }
        if taxonomiesRemoved > 0 {
            out +=
                "removed \(taxonomiesRemoved) taxonom\(taxonomiesRemoved == 1 ? "y" : "ies") no longer on the channel\n"
        }
        if itemsRemoved > 0 {
            out += "removed \(itemsRemoved) item\(itemsRemoved == 1 ? "" : "s") no longer on the channel\n"
        }
        if !skipped.isEmpty {
            out += "skipped \(skipped.count):\n" + skipped.map { "  " + $0 + "\n" }.joined()
        }
        if !failures.isEmpty {
            out += "failed \(failures.count):\n" + failures.map { "  " + $0 + "\n" }.joined()
        }
        out += WrittenFiles.lines(fetched.sorted(), verb: "fetched")
        return out
    }

    /// The summary as one JSON object, as `download` gives one under `set format json`: `folder`,
    /// `items`, `written`, `unchanged`, `files`, `fetched`, `complete`, `failedFiles`, `bytes`,
    /// `referencesAdded`, `removed`, `taxonomies`, `taxonomiesRemoved`, `skipped` and `failures` (lists of text), `fetchedFiles` (the
    /// native files fetched, relative to DIR, sorted). No timing.
    var json: JSON {
        .object([
            "folder": .string(target), "items": .int(itemsWritten + itemsUnchanged), "written": .int(itemsWritten),
            "unchanged": .int(itemsUnchanged), "files": .int(filesDownloaded + filesComplete + filesFailed),
            "fetched": .int(filesDownloaded), "complete": .int(filesComplete), "failedFiles": .int(filesFailed),
            "bytes": .int(Int(bytes)), "referencesAdded": .int(referencesAdded), "removed": .int(itemsRemoved),
            "taxonomies": .int(taxonomies), "taxonomiesRemoved": .int(taxonomiesRemoved),
            "skipped": .array(skipped.map { .string($0) }), "failures": .array(failures.map { .string($0) }),
            "fetchedFiles": .array(fetched.sorted().map { .string($0) }),
        ])
    }

    /// The summary as a command's result: the text for people, the JSON object as its data.
    var result: CommandResult { .screen(TerminalText.cleanKeepingLines(text), data: .document(json)) }

    static func seconds(_ value: Double) -> String { String(cFormat: "%.1f s", value) }
}
