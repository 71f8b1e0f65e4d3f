// `download TARGET [native | rendition NAME [format F] | thumbnail] [to DIR] [--concurrency N]
// [--force]`: the files of one item or a whole selection, through DeliveryKit's download pool.
//
// Order of work: read the arguments, resolve the items (one item, a `$var`'s rows, or a
// selection's first page: `DownloadItems`), refuse a single item that cannot give what was asked
// (a content item, a rendition it lacks: the message names the renditions it has), check that DIR
// can be created and written, read DIR's manifest, and only then transfer: each item is planned
// (name, revalidation) when the pool has room for one more file, so the first files transfer while
// the rest of the listing is read. Each file that completes is recorded in the manifest (saved at
// most twice a second while the batch runs, and at the end); a failed file is reported and the
// others go on. The summary goes to stdout; the statement fails (exit code 1 in a script) when any
// file failed, or when the listing failed part-way (after the files under way have ended).

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import OCEQLanguage
import OCEQShell

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `download`: native files, renditions or thumbnails of one item or a selection, into a folder.
package enum DownloadCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "download",
        abstract: "download native files, renditions or thumbnails of items into a folder",
        usage:
            "download ID|@n|$VAR|slug:SLUG|(list ...)|(first ...) [native | rendition NAME [format F] | thumbnail] "
            + "[to DIR] [--concurrency N] [--force]",
        examples: [
            "download @1 to ./out",
            "download @3 rendition Medium format jpg to ./out",
            "download (list type=Image) rendition Thumbnail to ./thumbs",
            "download (list type=Image order name limit 10) thumbnail to thumbs --concurrency 4",
            "download slug:image-flat-white-23 native to ./out --force",
        ],
        discussion: """
            TARGET is one item (an id, @n, $var, slug:S), a $var holding a listing, or a
            parenthesised list or first. A list without limit downloads every item that matches
            (fetched 500 at a time); with a limit, that many. Items that are not digital assets are
            reported and skipped. Without native, rendition or thumbnail, the native file is
            downloaded; without to, into the current folder. A rendition without format is fetched
            in the first format the asset lists.
            File names come from the asset names, made safe (no path separators, no control
            characters, at most 200 bytes) and unique (photo (2).jpg). The folder's
            .oceq-manifest.json records each completed file with its size and ETag; a second run
            asks the server whether each one changed and skips those that did not, unless --force.
            An interrupted file resumes where it stopped. Up to 8 files download at a time
            (--concurrency 1 to 64). The statement fails when any file failed.
            """
    ).planning(DownloadRequests.plan).sendingAhead(DownloadTargets.sendAhead).completing([
        .item,
        .options([
            CommandOption("native", group: "kind"), CommandOption("rendition", value: .rendition, group: "kind"),
            CommandOption("thumbnail", group: "kind"), CommandOption("format", value: .format, after: "rendition"),
            CommandOption("to", value: .folder), CommandOption("--force"),
            CommandOption("--concurrency", value: .typed),
        ]),
    ])

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let arguments = try DownloadArguments(command, usage: descriptor.usage, in: session)
        let client = try session.requireConnection().client
        let items: DownloadItems
        if case .selection(let select) = arguments.target.kind {
            items = try await DownloadItems.selection(select, at: arguments.target.span, in: session)
        } else {
            let (held, single) = try await DownloadTargets.items(arguments.target, of: command, in: session)
            if single, let asset = held.first,
                case .failure(let refusal) = DownloadPlan.source(of: DownloadItem(asset), kind: arguments.kind)
            {
                // The caret goes under the word the asset cannot satisfy.
                let (reason, span): (String, SourceSpan)
                switch refusal {
                case .notAFile(let text): (reason, span) = (text, arguments.target.span)
                case .noRendition(let text): (reason, span) = (text, arguments.renditionSpan ?? arguments.target.span)
                case .noFormat(let text): (reason, span) = (text, arguments.formatSpan ?? arguments.target.span)
                }
                throw .usage(TerminalText.clean("\(asset.name) (\(asset.id)): \(reason)"), span: span)
            }
            items = DownloadItems(held)
        }
        // A selection that matched nothing has nothing to write: no folder is made for it. A list may
        // match nothing (a nightly run with nothing new); a `first` names one item, so finding none is
        // the error `show (first ...)` gives.
        if items.isEmpty {
            if case .selection(let select) = arguments.target.kind, select.verb == .first {
                throw .usage("the selection matched no item", span: arguments.target.span)
            }
            return DownloadSummary(folder: arguments.folderText, items: 0).result
        }
        let created: [String]
        do {
            created = try DownloadFolder.prepare(arguments.folder, shown: arguments.folderText)
        } catch {
            throw .file(TerminalText.clean(error.message))
        }
        let hadManifest = FileManager.default.fileExists(atPath: DownloadManifest.path(folder: arguments.folder))
        var manifest: DownloadManifest
        do {
            manifest = try DownloadManifest.load(folder: arguments.folder)
        } catch {
            session.errors.write(TerminalText.clean("warning: \(error); it will be written afresh") + "\n")
            manifest = DownloadManifest()
        }
        let plan = DownloadPlan(
            kind: arguments.kind, folder: arguments.folder, manifest: manifest, force: arguments.force)
        let batch = DownloadBatch(
            plan: plan, manifest: manifest, folder: arguments.folder,
            summary: DownloadSummary(folder: arguments.folderText))
        let progress = session.errors.isTerminal ? ProgressLine(label: "download", sink: session.errors) : nil
        let estimate = Locked(DownloadEstimate())
        // The pool runs off the main actor (`isolation: nil`): its loop wakes once for each file that
        // ends and once to start the next, and on the main actor each wake was one more hop between
        // threads. `batch` and `items` are then touched by the pool alone until it returns. Each
        // item is planned when the pool has room for one more file (`next`), so the first files
        // transfer while the rest of the listing is still to be read.
        _ = await client.download(
            next: { @Sendable () async -> DownloadJob? in
                while let item = await items.next() {
                    guard let job = batch.add(item) else { continue }
                    let now = estimate.withLock { estimate -> DownloadEstimate in
                        estimate.files = batch.plan.downloads.count + items.remaining
                        return estimate
                    }
                    if batch.plan.downloads.count == 1 {
                        progress?.transfer(done: 0, of: now.files, bytes: 0, expectedBytes: nil, force: true)
                    }
                    return job
                }
                let exact = DownloadEstimate(exactly: batch.plan.downloads)
                estimate.withLock { $0 = exact }
                // Every file is planned: the line shows the bytes expected from now on (its counts
                // only grow, so the zeros do not move them back).
                if exact.files > 0 {
                    progress?.transfer(done: 0, of: exact.files, bytes: 0, expectedBytes: exact.bytes, force: true)
                }
                return nil
            }, maxConcurrent: arguments.concurrency,
            totals: { totals in
                let estimate = estimate.withLock { $0 }
                progress?.transfer(
                    done: totals.completed + totals.failed, of: max(totals.files, estimate.files),
                    bytes: totals.bytesReceived, expectedBytes: estimate.bytes)
            },
            finished: { @Sendable index, result in
                if let line = batch.finished(index, result) { progress?.note(TerminalText.clean("failed: " + line)) }
            },
            companion: { @Sendable group in batch.companion(for: group) },
            announce: { @Sendable group in batch.announcement(for: group) }, isolation: nil)
        progress?.finish()
        if batch.plan.downloads.isEmpty && !hadManifest && batch.manifest.entries.isEmpty {
            // Nothing to download (every item skipped): no manifest, and no folder this run made.
            DownloadFolder.removeCreated(created)
        } else {
            batch.saveManifest(final: true)
        }
        let outcome = batch.outcome(items: items.count)
        let result = outcome.result
        if let failure = items.failure {
            // The listing failed part-way: what was downloaded is complete and recorded; the
            // statement fails with the listing's error.
            session.render(result)
            if case .selection(let select) = arguments.target.kind, let query = try? session.compile(select) {
                throw QueryRefusal.error(failure, select: select, query: query, in: session)
            }
            throw .delivery(failure)
        }
        if !outcome.failures.isEmpty || outcome.manifestProblem != nil {
            session.render(result)
            // One line on stderr too, as `mirror` does: stdout may be a file or a pipe.
            let count = outcome.failures.count
            let what = count == 0 ? "the manifest was not saved" : "\(count) file\(count == 1 ? "" : "s") failed"
            // A rendition or format an asset lacks (`plan.problems`) fails the same way again: the advice
            // to retry comes with a file that failed to transfer, or the manifest.
            let retry = !batch.summary.failures.isEmpty || outcome.manifestProblem != nil
            throw .file("download: \(what) (see the summary)" + (retry ? "; run it again to retry" : ""))
        }
        if outcome.failed {
            session.render(result)
            throw .alreadyReported(ScriptRunner.ExitCode.failure)
        }
        return result
    }
}

/// What the progress line expects a batch to transfer: files (those planned, and one for each item
/// listed but not yet planned), and bytes once every file is planned and its size listed.
struct DownloadEstimate: Sendable {
    var files = 0
    var bytes: Int64?

    init() {}

    /// The exact figures of every file planned: the bytes of those fetched whole (not revalidated),
    /// nil when a size is not listed.
    init(exactly downloads: [PlannedDownload]) {
        files = downloads.count
        let sizes = downloads.filter { $0.job.ifNoneMatch == nil }.map(\.expectedSize)
        bytes = sizes.contains { $0 == nil } ? nil : sizes.reduce(Int64(0)) { $0 + ($1 ?? 0) }
    }
}
