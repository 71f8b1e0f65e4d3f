// The bookkeeping of one `download` batch as its files end, one at a time (the pool's `finished`
// hook): the summary's counts, the extension a thumbnail gets from the type served, and the
// manifest, saved at most twice a second while the batch runs and once at its end.
//
// The end's save usually costs no flush of its own: the manifest as it will be once the pool's
// last group of files is reported is handed to the pool (`companion`), which writes it with that
// group, renames it after their renames and flushes it with them. When every file of the group
// then reports as planned, the manifest is already on the disk; otherwise it is saved as before.
//
// Between saves, files are named that the manifest on the disk does not list yet: each group of new
// files is first appended to the manifest's journal (`announcement(for:)`, by the commit cycle that
// flushes their bytes), which `DownloadManifest.load` reads, so a run killed in between (SIGKILL, a
// crash) does not leave files the next run would take for someone else's. The final save removes it.

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The bookkeeping of one batch as its files end: summary counts, thumbnail extensions, manifest.
/// Used by one task at a time: the download pool's loop (off the main actor) while it runs, then
/// the command once it has returned.
final class DownloadBatch: @unchecked Sendable {
    /// The files planned so far (`add`), in the order the pool is given their jobs.
    private(set) var plan: DownloadPlan
    let folder: String
    private(set) var manifest: DownloadManifest
    private(set) var summary: DownloadSummary
    private var lastSave = ContinuousClock.now
    private var unsaved = false
    /// The manifest handed to the pool with its last group of files, and that manifest.
    private var companion: (file: DownloadCompanion, manifest: DownloadManifest)?
    /// The manifest's journal, opened by the first group announced (`announcement(for:)`).
    private lazy var journal = DownloadJournal(path: DownloadManifest.journalPath(folder: folder))

    init(plan: DownloadPlan, manifest: DownloadManifest, folder: String, summary: DownloadSummary) {
        self.plan = plan
        self.manifest = manifest
        self.folder = folder
        self.summary = summary
    }

    /// Plans `item`, the next item; its job when it gives a file to fetch, whose index in the pool
    /// is `plan.downloads.count - 1`.
    func add(_ item: DownloadItem) -> DownloadJob? {
        plan.add(item, manifest: &manifest) ? plan.downloads[plan.downloads.count - 1].job : nil
    }

    /// The summary of the batch of `items` items as it stands: the items that gave no file, the
    /// items that could not give what was asked (failures, listed before the files that failed), and
    /// the files' outcomes.
    func outcome(items: Int) -> DownloadSummary {
        var outcome = summary
        outcome.items = items
        outcome.notFiles = plan.notFiles.map { DownloadSummary.Line(name: $0.name, id: $0.id, reason: $0.reason) }
        outcome.failures =
            plan.problems.map { DownloadSummary.Line(name: $0.name, id: $0.id, reason: $0.reason) } + summary.failures
        return outcome
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
                    unlink(planned.job.path)
                    return fail(planned, reason)
                }
                name = renamed
            }
            summary.downloaded += 1
            summary.downloadedBytes += done.bytes
            summary.written.append(DownloadSummary.File(file: name, id: planned.assetId, bytes: done.bytes))
            manifest.record(
                DownloadManifest.Entry(
                    assetId: planned.assetId, kind: planned.kind, file: name, size: done.bytes, etag: done.etag))
            unsaved = true
            // Once the last group's manifest is on its way, it is the next save.
            if companion == nil && ContinuousClock.now - lastSave > .milliseconds(500) { saveManifest(final: false) }
            return nil
        case .failure(.cancelled):
            summary.cancelled += 1
            return nil
        case .failure(let error):
            return fail(planned, DownloadBatch.reason(error))
        }
    }

    private func fail(_ planned: PlannedDownload, _ reason: String) -> String {
        let line = DownloadSummary.Line(name: planned.job.name, id: planned.assetId, reason: reason)
        summary.failures.append(line)
        return summary.describe(line)
    }

    /// The manifest as it will be once the pool's last group of files (`group`, with the results
    /// they will report) is reported, to be written with that group; nil when a file of the group
    /// gets its extension only once reported (a thumbnail), which the manifest must name.
    func companion(for group: [(index: Int, result: DownloadResult)]) -> DownloadCompanion? {
        var finalManifest = manifest
        for (index, result) in group {
            let planned = plan.downloads[index]
            if planned.addsExtension || result.notModified { return nil }
            finalManifest.record(
                DownloadManifest.Entry(
                    assetId: planned.assetId, kind: planned.kind, file: planned.job.name, size: result.bytes,
                    etag: result.etag))
        }
        let file = DownloadCompanion(
            path: DownloadManifest.path(folder: folder), temporary: DownloadManifest.temporaryPath(folder: folder),
            content: { [finalManifest] in finalManifest.encoded })
        companion = (file, finalManifest)
        return file
    }

    /// The lines the manifest's journal gets before a group of files (`group`, with the results they
    /// will report) is named: one entry for each file whose name was free when planned, so that a
    /// run killed after naming them and before saving the manifest leaves them recorded
    /// (`DownloadManifest.load` reads the journal). Not a file that replaces one (its old entry is
    /// what a crash should leave) nor a thumbnail, whose extension comes with its report.
    func announcement(for group: [(index: Int, result: DownloadResult)]) -> DownloadAnnouncement? {
        let entries = group.compactMap { (index, result) -> DownloadManifest.Entry? in
            let planned = plan.downloads[index]
            guard planned.freshName, !planned.addsExtension, !result.notModified else { return nil }
            return DownloadManifest.Entry(
                assetId: planned.assetId, kind: planned.kind, file: planned.job.name, size: result.bytes,
                etag: result.etag)
        }
        guard !entries.isEmpty else { return nil }
        return DownloadAnnouncement(journal: journal) { DownloadManifest.journalLines(entries) }
    }

    /// Writes the manifest if it changed; a failure is reported only for the final save. The final
    /// save is skipped when the manifest went to the disk with the last group of files and is what
    /// the files reported make it. Once the final manifest is on the disk, the journal goes.
    func saveManifest(final: Bool) {
        if final { journal.close() }
        if final, let companion, companion.file.published, companion.manifest == manifest {
            unsaved = false
            DownloadManifest.removeJournal(folder: folder)
            return
        }
        guard unsaved || final else { return }
        lastSave = ContinuousClock.now
        do {
            try manifest.save(folder: folder)
            unsaved = false
            if final { DownloadManifest.removeJournal(folder: folder) }
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
        let type = contentType.split(separator: ";").first.map { $0.trimmedSpaces.lowercased() }
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
