// The native files of a run: those already complete on disk (present, and as long as the item's
// `fields.size` says, when it says) are counted and left alone; the others go to DeliveryKit's
// download engine, which streams to `<name>.part`, resumes a part it can validate and renames
// only a complete file. A refetched asset's folder keeps only its current file.

import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import OCEQShell

/// Fetches the native files a run needs.
struct NativeFetcher {
    /// A native file of the mirror.
    struct NativeFile {
        var id: String
        var folder: String
        var name: String
        /// The item's `fields.size`, when it has one.
        var size: Int?
    }

    var client: DeliveryClient
    /// The mirror folder: files are measured, written and removed inside it without following links.
    var target: MirrorTarget
    var progress: ProgressLine?
    var maxConcurrent = 4

    /// Fetches what is not complete yet; the counts and failures go to `summary`.
    func run(_ natives: [NativeFile], summary: inout MirrorSummary) async {
        var jobs: [DownloadJob] = []
        for native in natives {
            let path = native.folder + "/" + native.name
            if let existing = try? target.directory().fileSize(target.relative(path)),
                native.size == nil || native.size == existing
            {
                summary.filesComplete += 1
                continue
            }
            var job = DownloadJob(DeliveryAPI.downloadNative(id: native.id), folder: native.folder, name: native.name)
            job.containedIn = target.root
            jobs.append(job)
        }
        guard !jobs.isEmpty else { return }
        let line = progress
        let results = await client.download(
            jobs, maxConcurrent: maxConcurrent,
            totals: { totals in
                line?.transfer(done: totals.completed + totals.failed, of: totals.files, bytes: totals.bytesReceived)
            })
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let done):
                summary.filesDownloaded += 1
                summary.bytes += done.bytes - done.resumedFrom
                summary.fetched.append(target.relative(job.path))
                removeOthers(in: job.folder, keeping: job.name)
            case .failure(.cancelled):
                continue  // Ctrl-C: the run reports it once
            case .failure(let error):
                summary.filesFailed += 1
                summary.failures.append("\(job.path): \(error)")
            }
        }
    }

    /// Removes the files of an asset's folder other than `name` (an earlier name of a renamed
    /// asset, a part of it), so the folder holds its one native file as in an export. The folder is
    /// opened without following links, so a folder swapped for a link loses nothing.
    func removeOthers(in folder: String, keeping name: String) {
        guard let opened = try? target.directory().folder(target.relative(folder)) else { return }
        for file in (try? opened.list()) ?? [] where file.name != name && file.kind == .regular {
            opened.remove(file.name)
        }
    }
}
