// `download TARGET [native | rendition NAME [format F] | thumbnail] [to DIR] [--concurrency N]
// [--force]`: the files of one item or a whole selection, through DeliveryKit's download pool.
//
// Order of work: read the arguments, resolve the items, refuse a single item that cannot give
// what was asked (a content item, a rendition it lacks: the message names the renditions it has),
// check that DIR can be created and written, read DIR's manifest, plan names and revalidations, and
// only then transfer. Each file that completes is recorded in the manifest (saved at most twice a
// second while the batch runs, and at the end); a failed file is reported and the others go on.
// The summary goes to stdout; the statement fails (exit code 1 in a script) when any file failed.

import AssetModule
import DeliveryKit
import Foundation
import OCEQLanguage
import OCEQShell

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `download`: native files, renditions or thumbnails of one item or a selection, into a folder.
public enum DownloadCommand: Command {
    public static let descriptor = CommandDescriptor(
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
            """)

    public static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let arguments = try DownloadArguments(command, usage: descriptor.usage, in: session)
        let client = try session.requireConnection().client
        let (items, single) = try await DownloadTargets.items(arguments.target, of: command, in: session)
        if single, let asset = items.first,
            case .failure(let refusal) = DownloadPlan.source(of: asset, kind: arguments.kind)
        {
            let reason: String
            switch refusal {
            case .notAFile(let text), .missing(let text): reason = text
            }
            throw .usage(TerminalText.clean("\(asset.name) (\(asset.id)): \(reason)"), span: arguments.target.span)
        }
        do {
            try DownloadFolder.prepare(arguments.folder, shown: arguments.folderText)
        } catch {
            throw .file(TerminalText.clean(error.message))
        }
        var manifest: DownloadManifest
        do {
            manifest = try DownloadManifest.load(folder: arguments.folder)
        } catch {
            session.errors.write(TerminalText.clean("warning: \(error); it will be written afresh") + "\n")
            manifest = DownloadManifest()
        }
        let plan = DownloadPlan(
            items: items, kind: arguments.kind, folder: arguments.folder, manifest: &manifest, force: arguments.force)
        var summary = DownloadSummary(folder: arguments.folderText, items: items.count)
        summary.notFiles = plan.notFiles.map {
            DownloadSummary.Line(name: $0.asset.name, id: $0.asset.id, reason: $0.reason)
        }
        summary.failures = plan.problems.map {
            DownloadSummary.Line(name: $0.asset.name, id: $0.asset.id, reason: $0.reason)
        }

        let batch = DownloadBatch(plan: plan, manifest: manifest, folder: arguments.folder, summary: summary)
        let downloads = plan.downloads
        let progress: DownloadProgressLine?
        if session.errors.isTerminal && !downloads.isEmpty {
            let sizes = downloads.filter { $0.job.ifNoneMatch == nil }.map(\.expectedSize)
            let expected = sizes.contains { $0 == nil } ? nil : sizes.reduce(Int64(0)) { $0 + ($1 ?? 0) }
            progress = DownloadProgressLine(sink: session.errors, files: downloads.count, expectedBytes: expected)
            progress?.update(done: 0, bytes: 0, force: true)
        } else {
            progress = nil
        }
        _ = await client.download(
            downloads.map(\.job), maxConcurrent: arguments.concurrency,
            totals: { totals in progress?.update(done: totals.completed + totals.failed, bytes: totals.bytesReceived) },
            finished: { index, result in
                if let line = batch.finished(index, result) { progress?.note(TerminalText.clean("failed: " + line)) }
            })
        progress?.finish()
        batch.saveManifest(final: true)
        if session.settings.format == .json || session.settings.format == .ndjson {
            let pretty = session.settings.format == .json && session.output.isTerminal
            session.output.write(
                TerminalText.cleanKeepingLines(JSONWriter(indent: pretty ? 2 : nil).string(batch.summary.json)) + "\n")
        } else {
            session.output.write(batch.summary.text)
        }
        if batch.summary.failed { throw .alreadyReported(ScriptRunner.ExitCode.failure) }
        return .none
    }
}

/// The bookkeeping of one batch as its files end: summary counts, thumbnail extensions, manifest.
final class DownloadBatch {
    let plan: DownloadPlan
    let folder: String
    private(set) var manifest: DownloadManifest
    private(set) var summary: DownloadSummary
    private var lastSave = ContinuousClock.now
    private var unsaved = false

    init(plan: DownloadPlan, manifest: DownloadManifest, folder: String, summary: DownloadSummary) {
        self.plan = plan
        self.manifest = manifest
        self.folder = folder
        self.summary = summary
    }

    /// Records the end of download `index`; returns the failure line when it failed.
    func finished(_ index: Int, _ result: Result<DownloadResult, DeliveryError>) -> String? {
        let planned = plan.downloads[index]
        switch result {
        case .success(let done) where done.notModified:
            summary.complete += 1
            return nil
        case .success(let done):
            var name = planned.job.name
            if planned.addsExtension, let ext = DownloadBatch.fileExtension(contentType: done.contentType) {
                let renamed = UniqueFileNames.withExtension(name, ext)
                if rename(planned.job.path, folder + "/" + renamed) != 0 {
                    let reason = "cannot rename it to \(renamed): \(String(cString: strerror(errno)))"
                    return fail(planned, reason)
                }
                name = renamed
            }
            summary.downloaded += 1
            summary.downloadedBytes += done.bytes
            manifest.record(
                DownloadManifest.Entry(
                    assetId: planned.asset.id, kind: planned.kind, file: name, size: done.bytes, etag: done.etag))
            unsaved = true
            if ContinuousClock.now - lastSave > .milliseconds(500) { saveManifest(final: false) }
            return nil
        case .failure(.cancelled):
            summary.cancelled += 1
            return nil
        case .failure(let error):
            return fail(planned, DownloadBatch.reason(error))
        }
    }

    private func fail(_ planned: PlannedDownload, _ reason: String) -> String {
        let line = DownloadSummary.Line(name: planned.job.name, id: planned.asset.id, reason: reason)
        summary.failures.append(line)
        return summary.describe(line)
    }

    /// Writes the manifest if it changed; a failure is reported only for the final save.
    func saveManifest(final: Bool) {
        guard unsaved || final else { return }
        lastSave = ContinuousClock.now
        do {
            try manifest.save(folder: folder)
            unsaved = false
        } catch {
            if final { summary.manifestProblem = error.reason }
        }
    }

    /// Why a file failed, in one line.
    static func reason(_ error: DeliveryError) -> String {
        if error.isOutOfSpace, case .file(_, _, let code) = error {
            return "out of space (\(String(cString: strerror(code)))); the partial file was removed"
        }
        return error.description
    }

    /// The extension for a received media type (`image/webp` → `webp`), if there is a sensible one.
    static func fileExtension(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch type {
        case "image/jpeg", "image/jpg": return "jpg"
        case "image/png": return "png"
        case "image/webp": return "webp"
        case "image/gif": return "gif"
        case "image/avif": return "avif"
        case "image/svg+xml": return "svg"
        default:
            guard let type, type.hasPrefix("image/") else { return nil }
            let subtype = String(type.dropFirst("image/".count))
            return subtype.allSatisfy { $0.isLetter || $0.isNumber } && subtype.count <= 8 ? subtype : nil
        }
    }
}

extension UniqueFileNames {
    /// `name.ext`, kept within the length cap.
    static func withExtension(_ name: String, _ ext: String) -> String {
        SafeFileName.capped(name, bytes: SafeFileName.maximumBytes - ext.utf8.count - 1) + "." + ext
    }
}
