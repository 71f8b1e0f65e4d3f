// Group commit for a batch of downloads, as a pipeline of cycles on a thread of its own while the
// transfers keep every slot busy. Complete parts wait in a small batch (128 files or 3 ms, 1 ms
// once every job has started: `DownloadCommitPolicy.standard`); a cycle then flushes them. The
// next cycle renames them and flushes the renames, with the same `syncfs` that flushes the bytes
// of the parts completed meanwhile, which the cycle after renames. Only then are files reported
// (`finished`, hence the manifest): no file appears under its final name before its bytes are on
// the disk, and nothing is reported before its name is. One cycle runs at a time; a cycle follows
// at once while parts wait for their rename, except once every job has started and transfers still
// run: the renames then wait (the final delay at most) for the next batch's cycle, whose `syncfs`
// they share, instead of a `syncfs` of their own under the last files' direct writes. Flushing
// while the transfers run names the files as they go, so the command's end waits for the last few
// files' cycles, not for a whole batch's flush and renames; those last cycles run one after the
// other on the commit thread, without going back to the pool in between
// (`run(_:on:observer:throughTheEnd:)`). A part with no name (a file that arrived whole,
// `FileIO.openNamelessPart`) is named with `linkat` where a `.part` is renamed: "rename" below means
// either, and its descriptor stays open from its flush to its name.
//
// The flushes, measured (Scripts/bench-download, 500 renditions on ext4 on a virtual disk): an
// `fsync` costs a journal commit or at least a disk cache flush, one to a few milliseconds even
// when the file's data is already written, and per-file `fsync`s on Swift's two cooperative
// threads left transfers waiting. So a cycle's parts are flushed with one `syncfs` per file system
// (their large parts' write-back was started as their bytes were written, small ones' as they
// completed), then each part's own write-back is awaited (`sync_file_range` WAIT, which reports
// that file's write errors without another flush; before Linux 5.8 `syncfs` itself reports none).
// Where `syncfs` fails, each part (or folder) gets its own `fsync` instead. A `syncfs` costs about
// 0.1 ms for each new file it makes durable (its inode and its blocks' allocation, on this VM's
// ext4), so flushing while the transfers run leaves the end little to wait for; and renaming one
// group under the flush of the next halves the flushes of the two-flush batch it replaced
// (Scripts/bench-download-command: see `DownloadCommitPolicy.standard`).

import DeliveryKit
import Dispatch
import OCEQCore

/// When a batch of complete parts is flushed and renamed.
@_spi(Testing) public struct DownloadCommitPolicy: Sendable, Equatable {
    /// A batch is flushed once it holds this many files.
    public var maxFiles: Int
    /// ... or once its first file has waited this long (and the commit before it is done) ...
    public var maxDelay: Duration
    /// ... or this long, once every job has started: the batches that end the pool are small, so
    /// that its end waits for the last few files' commit, not for a large batch's.
    public var finalDelay: Duration
    // ... or when no transfer is running (the end of the jobs, or only slow ones left waiting).

    /// `finalDelay` is `maxDelay` unless given.
    public init(maxFiles: Int, maxDelay: Duration, finalDelay: Duration? = nil) {
        self.maxFiles = maxFiles
        self.maxDelay = maxDelay
        self.finalDelay = finalDelay ?? maxDelay
    }

    /// 128 files or 3 ms while jobs are left to start, 1 ms once every job has started: a cycle
    /// follows the one before it nearly at once, as a database's group commit does, so that the
    /// files are named while the transfers run and the command's end waits for the last few files'
    /// cycles only.
    ///
    /// Scripts/bench-download-command, each line in the same rounds (the VM's file system moved
    /// every figure by 20 % and more from one hour to the next: files deleted minutes before slow
    /// every new one), against the two-flush batches this pipeline replaced (200 ms, then 5 ms once
    /// every job had started): 74 files 40.6 vs 46.4 ms, 42.8 vs 47.2, 46.0 vs 53.2; 500 files 170
    /// vs 194 ms, 198 vs 196. 1 ms then none was as fast (74: 41.3, 44.1; 500: 172, 177, 158 vs
    /// 160) with more flushes (500 files: 61 to 139 `syncfs`, 78 at 3 ms; each also writes what
    /// other programs left dirty); 20 ms then none lost the gain at 74 files (52.4 vs 52.2 ms;
    /// 54.3 against 47.7 for 3 ms, base 53.7, 21 rounds), its files waiting for their flush until
    /// the transfers were nearly over. Earlier (session 12): 128 rather than 64 files a batch, 11 %
    /// faster for 500 files on a disk with slower flushes. The parts waiting hold a descriptor each,
    /// at most 256.
    public static let standard = DownloadCommitPolicy(
        maxFiles: 128, maxDelay: .milliseconds(3), finalDelay: .milliseconds(1))

    /// How many transfers a pool of at most `maxConcurrent` runs at a time, and this policy with batches
    /// no larger than the rest allows, within the `descriptors` the pool may use: each transfer holds a
    /// connection and a part (a quarter of the descriptors at most go to transfers), and a file holds a
    /// descriptor from its part's first write to its name (two batches waiting for their flush and one
    /// flushed, waiting for its name). With the usual limit of 1024 and more, `maxConcurrent` and this
    /// policy unchanged.
    func fitting(descriptors: Int, maxConcurrent: Int) -> (transfers: Int, policy: DownloadCommitPolicy) {
        let transfers = max(1, min(maxConcurrent, descriptors / 4))
        var fitted = self
        fitted.maxFiles = max(1, min(maxFiles, (descriptors - 2 * transfers) / 3))
        return (transfers, fitted)
    }
}

/// One step of a commit, as seen by `DownloadCommit.observer` (tests check their order).
@_spi(Testing) public enum DownloadCommitStep: Sendable, Hashable {
    /// A batch of parts (their final paths) is about to be flushed.
    case batch([String])
    /// A part's bytes are on the disk (`fsync` returned); the part path.
    case synced(String)
    /// A part was renamed to this final path.
    case published(String)
    /// A folder's entries are on the disk.
    case folderSynced(String)
    /// A file system was flushed whole (`syncfs` returned).
    case fileSystemFlushed
}

/// One step of the commit pipeline: the parts the step before flushed are renamed (and the
/// companion it wrote), then the parts completed since are flushed, by the same `syncfs` that
/// flushes those renames.
struct CommitCycle: Sendable {
    /// Parts whose bytes an earlier cycle flushed (their descriptors closed): renamed now.
    var publish: [(Int, StagedDownload)] = []
    /// The companion an earlier cycle wrote and flushed: renamed after `publish` when every one of
    /// them was, else removed.
    var companionToPublish: DownloadCompanion?
    /// Complete parts, open: flushed now, renamed by the next cycle.
    var flush: [(Int, StagedDownload)] = []
    /// A companion to write now, flushed with `flush`, renamed by the next cycle.
    var companionToWrite: DownloadCompanion?
    /// Lines to append before anything else, describing the parts of `flush`, which the next
    /// cycle names (`DownloadAnnouncement`).
    var announcement: DownloadAnnouncement?
}

/// What a cycle did.
struct CommitOutcome: Sendable {
    /// The parts of `publish` renamed (successes, each durable under its final name) or not, and
    /// the parts of `flush` that failed to flush.
    var results: [(Int, Result<DownloadResult, DeliveryError>)] = []
    /// The parts of `flush` whose bytes are now on the disk, for the next cycle to rename.
    var flushed: [(Int, StagedDownload)] = []
    /// `companionToWrite`, written and flushed; nil when it could not be, or when a file of this
    /// cycle failed (nothing is left of it).
    var companion: DownloadCompanion?
}

/// Flushes and renames staged downloads, a cycle at a time.
@_spi(Testing) public enum DownloadCommit {
    /// Batching of the pool in this task (tests use small batches).
    @_spi(Testing) @TaskLocal public static var policy = DownloadCommitPolicy.standard

    /// Called on the commit thread at each step of every batch; a test can look at the folder
    /// there, as a crash at that point would leave it.
    @_spi(Testing) @TaskLocal public static var observer: (@Sendable (DownloadCommitStep) -> Void)?

    /// Runs `cycle` on `queue` (not on the cooperative pool: the calls block on the disk). With
    /// `throughTheEnd` (the pool's last files: nothing is left to transfer or to stage), the cycles
    /// that follow it run there too, one after the other, until nothing waits for its rename: what a
    /// cycle flushed is all the next one has to do, so going back to the pool between them would
    /// only add two hand-offs between threads to the end of the download (about 0.5 ms a cycle on a
    /// 2-vCPU VM, where waking the other vCPU costs 25 µs each way).
    static func run(
        _ cycle: CommitCycle, on queue: DispatchQueue, observer: (@Sendable (DownloadCommitStep) -> Void)?,
        throughTheEnd: Bool = false
    ) async -> CommitOutcome {
        await withCheckedContinuation { continuation in
            queue.async {
                var outcome = commit(cycle, observer: observer)
                while throughTheEnd && (!outcome.flushed.isEmpty || outcome.companion != nil) {
                    let next = commit(
                        CommitCycle(publish: outcome.flushed, companionToPublish: outcome.companion),
                        observer: observer)
                    outcome = CommitOutcome(
                        results: outcome.results + next.results, flushed: next.flushed, companion: next.companion)
                }
                continuation.resume(returning: outcome)
            }
        }
    }

    /// One cycle: writes the companion to write; renames the parts to publish (and then the
    /// companion to publish, when all of them were); flushes every file system involved once
    /// (`syncfs`: the new parts' bytes, the companion's, the renames), then checks each new part's
    /// own write-back (an `fsync` of each part, and of each renamed part's folder, where `syncfs`
    /// fails). A part is reported only once its rename is on the disk, and renamed only once its
    /// bytes are: each file takes two cycles, but each cycle one flush, not two.
    static func commit(_ cycle: CommitCycle, observer: (@Sendable (DownloadCommitStep) -> Void)?) -> CommitOutcome {
        if !cycle.flush.isEmpty { observer?(.batch(cycle.flush.map { $0.1.job.path })) }
        cycle.announcement?.append()
        var outcome = CommitOutcome()
        let companionFD = cycle.companionToWrite?.write()
        var folders: [String] = []
        var renamed: [(Int, StagedDownload)] = []
        for (index, staged) in cycle.publish {
            do throws(DeliveryError) {
                try staged.publish()
                observer?(.published(staged.job.path))
                renamed.append((index, staged))
                if !folders.contains(staged.job.folder) { folders.append(staged.job.folder) }
            } catch {
                outcome.results.append((index, .failure(error)))
            }
        }
        var companionRenamed = false
        if let companion = cycle.companionToPublish {
            // Only with every file it lists: a companion (a manifest) never lists a file that failed.
            if outcome.results.isEmpty, (try? FileIO.rename(companion.temporary, companion.path)) != nil {
                companionRenamed = true
                if !folders.contains(companion.folder) { folders.append(companion.folder) }
            } else {
                companion.discard()
            }
        }
        var flushed: [UInt64: Bool] = [:]
        for (index, staged) in cycle.flush {
            let fileSystemFlushed = flushFileSystem(staged.device, of: staged.fd, &flushed, observer: observer)
            do throws(DeliveryError) {
                try staged.sync(fileSystemFlushed: fileSystemFlushed)
                observer?(.synced(staged.job.partPath))
                outcome.flushed.append((index, staged))
            } catch {
                outcome.results.append((index, .failure(error)))
            }
        }
        if let companion = cycle.companionToWrite, let fd = companionFD {
            defer { FileIO.close(fd) }
            let fileSystemFlushed = flushFileSystem(of: fd, &flushed, observer: observer)
            // It lists every file of this cycle (those renamed, those flushed): kept only when none
            // failed. `results` holds failures alone until the successes are added below.
            if outcome.results.isEmpty,
                (try? FileIO.flush(fd, path: companion.temporary, fileSystemFlushed: fileSystemFlushed)) != nil
            {
                outcome.companion = companion
            } else {
                companion.discard()
            }
        }
        syncFolders(folders, flushed: &flushed, observer: observer)
        if companionRenamed { cycle.companionToPublish?.markPublished() }
        for (index, staged) in renamed { outcome.results.append((index, .success(staged.result))) }
        return outcome
    }

    /// Flushes the entries of `folders`: one `syncfs` per file system not flushed in this cycle
    /// already (`flushed`, after the renames), an `fsync` of each folder where that fails.
    /// Failures are ignored, as for a single download's folder.
    static func syncFolders(
        _ folders: [String], flushed: inout [UInt64: Bool], observer: (@Sendable (DownloadCommitStep) -> Void)?
    ) {
        for folder in folders {
            let fd = FileIO.openFolder(folder)
            if fd >= 0 {
                defer { FileIO.close(fd) }
                if !flushFileSystem(of: fd, &flushed, observer: observer) { FileIO.syncDirectory(folder) }
            }
            observer?(.folderSynced(folder))
        }
    }

    /// Flushes the file system holding `fd` (`syncfs`) unless this cycle did already, as
    /// `flushed` (by device) remembers; whether it is flushed: false when its device is unknown or
    /// its `syncfs` failed, so the caller flushes the file itself.
    private static func flushFileSystem(
        of fd: Int32, _ flushed: inout [UInt64: Bool], observer: (@Sendable (DownloadCommitStep) -> Void)?
    ) -> Bool {
        guard let device = FileIO.device(fd) else { return false }
        return flushFileSystem(device, of: fd, &flushed, observer: observer)
    }

    /// Flushes `device`, which holds `fd`, unless this cycle did already (as above).
    private static func flushFileSystem(
        _ device: UInt64, of fd: Int32, _ flushed: inout [UInt64: Bool],
        observer: (@Sendable (DownloadCommitStep) -> Void)?
    ) -> Bool {
        if flushed[device] == nil {
            flushed[device] = FileIO.syncFileSystem(fd) == 0
            if flushed[device] == true { observer?(.fileSystemFlushed) }
        }
        return flushed[device] ?? false
    }
}
