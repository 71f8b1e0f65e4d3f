// Group commit for a batch of downloads: complete parts wait in a small batch (128 files or 200 ms,
// 5 ms once every job has started, or until no transfer is left to add to it); then, on a thread of
// its own while the transfers keep every slot busy, the batch's parts are flushed, renamed, and the
// renames flushed. Only then are they reported (`finished`, hence the manifest): no file appears
// under its final name before its bytes are on the disk, and nothing is reported before its name
// is. One commit runs at a time; the parts that complete meanwhile form the next batch. The long
// delay keeps the flushes of a large batch few (each `syncfs` also writes what other programs left
// dirty); the short one at the end names the files while the last transfers run, so the command's
// end waits for the last few files' commit, not for a whole batch's flush and renames.
//
// The flushes, measured (Scripts/bench-download, 500 renditions on ext4 on a virtual disk): an
// `fsync` costs a journal commit or at least a disk cache flush, one to a few milliseconds even
// when the file's data is already written, and per-file `fsync`s on Swift's two cooperative
// threads left transfers waiting. So a batch is flushed with one `syncfs` per file system (its
// large parts' write-back was started as their bytes were written, small ones are written by it),
// then each part's own
// write-back is awaited (`sync_file_range` WAIT, which reports that file's write errors without
// another flush; before Linux 5.8 `syncfs` itself reports none), and the renames with one more
// `syncfs`. Where `syncfs` fails, each part (or folder) gets its own `fsync` instead. `syncfs`
// also writes out what other programs left dirty on that file system: the price of one flush.

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

    /// 128 files or 200 ms while jobs are left to start, 5 ms once none is.
    ///
    /// Scripts/bench-download-command, 31 rounds, the policy before it in the same rounds. 200 ms
    /// throughout made 74 files one commit after the last transfer, and 500 files four; 5 ms
    /// throughout (74: 51.4 → 46.1 ms, 500: 205 → 174 ms, CPU -11 % and -22 %) named the files while
    /// the transfers ran, at the price of many flushes (74 files: 3 to 8 commits; 500: 20 to 48, one
    /// every few milliseconds for as long as a large batch runs). 200 ms, then 5 ms once the jobs run
    /// out, was as fast as 5 ms throughout (74: 43.0 vs 43.8 ms; 500: 221.5 vs 221.1 ms) with 2 or 3
    /// commits for 74 files and 5 for 500. 128 rather than 64 (session 12, on a disk with slower
    /// flushes): 500 files in 4 large commits took 11 % less time than in 8. The parts waiting hold
    /// a descriptor each, at most 256.
    public static let standard = DownloadCommitPolicy(
        maxFiles: 128, maxDelay: .milliseconds(200), finalDelay: .milliseconds(5))
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
}

/// Flushes and renames batches of staged downloads.
@_spi(Testing) public enum DownloadCommit {
    /// Batching of the pool in this task (tests use small batches).
    @_spi(Testing) @TaskLocal public static var policy = DownloadCommitPolicy.standard

    /// Called on the commit thread at each step of every batch; a test can look at the folder
    /// there, as a crash at that point would leave it.
    @_spi(Testing) @TaskLocal public static var observer: (@Sendable (DownloadCommitStep) -> Void)?

    /// Commits `batch` on `queue` (not on the cooperative pool: the calls block on the disk).
    static func run(
        _ batch: [(Int, StagedDownload)], companion: DownloadCompanion? = nil, on queue: DispatchQueue,
        observer: (@Sendable (DownloadCommitStep) -> Void)?
    ) async -> [(Int, Result<DownloadResult, DeliveryError>)] {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: commit(batch, companion: companion, observer: observer))
            }
        }
    }

    /// Flushes every part (one `syncfs` per file system, then each part's own write-back status;
    /// an `fsync` of each where `syncfs` fails), renames those that flushed, then flushes the
    /// folders of the renames the same way: two journal commits per batch, not one per file. A
    /// `companion` is written before the flush of the parts' bytes and flushed by it, renamed
    /// after every part of the batch was (else removed), and its rename flushed with theirs.
    static func commit(
        _ batch: [(Int, StagedDownload)], companion: DownloadCompanion? = nil,
        observer: (@Sendable (DownloadCommitStep) -> Void)?
    ) -> [(Int, Result<DownloadResult, DeliveryError>)] {
        observer?(.batch(batch.map { $0.1.job.path }))
        var results: [(Int, Result<DownloadResult, DeliveryError>)] = []
        var flushed: [UInt64: Bool] = [:]
        let companionFD = companion?.write()
        var synced: [(Int, StagedDownload)] = []
        for (index, staged) in batch {
            let fileSystemFlushed = flushFileSystem(staged.device, of: staged.fd, &flushed)
            do throws(DeliveryError) {
                try staged.sync(fileSystemFlushed: fileSystemFlushed)
                observer?(.synced(staged.job.partPath))
                synced.append((index, staged))
            } catch {
                results.append((index, .failure(error)))
            }
        }
        var companionFlushed = false
        if let companion, let fd = companionFD {
            defer { FileIO.close(fd) }
            let fileSystemFlushed = flushFileSystem(of: fd, &flushed)
            do throws(DeliveryError) {
                try FileIO.flush(fd, path: companion.temporary, fileSystemFlushed: fileSystemFlushed)
                companionFlushed = true
            } catch {
                companion.discard()
            }
        }
        var folders: [String] = []
        var renamed: [(Int, StagedDownload)] = []
        for (index, staged) in synced {
            do throws(DeliveryError) {
                try staged.publish()
                observer?(.published(staged.job.path))
                renamed.append((index, staged))
                if !folders.contains(staged.job.folder) { folders.append(staged.job.folder) }
            } catch {
                results.append((index, .failure(error)))
            }
        }
        var companionRenamed = false
        if let companion, companionFlushed {
            // Only with the whole batch: a companion (a manifest) never lists a file that failed.
            if results.isEmpty, (try? FileIO.rename(companion.temporary, companion.path)) != nil {
                companionRenamed = true
                if !folders.contains(companion.folder) { folders.append(companion.folder) }
            } else {
                companion.discard()
            }
        }
        syncFolders(folders, observer: observer)
        if let companion, companionRenamed { companion.markPublished() }
        for (index, staged) in renamed { results.append((index, .success(staged.result))) }
        return results
    }

    /// Flushes the entries of `folders`: one `syncfs` per file system, an `fsync` of each folder
    /// where that fails. Failures are ignored, as for a single download's folder.
    static func syncFolders(_ folders: [String], observer: (@Sendable (DownloadCommitStep) -> Void)?) {
        var flushed: [UInt64: Bool] = [:]
        for folder in folders {
            let fd = FileIO.openFolder(folder)
            if fd >= 0 {
                defer { FileIO.close(fd) }
                if !flushFileSystem(of: fd, &flushed) { FileIO.syncDirectory(folder) }
            }
            observer?(.folderSynced(folder))
        }
    }

    /// Flushes the file system holding `fd` (`syncfs`) unless this commit step did already, as
    /// `flushed` (by device) remembers; whether it is flushed: false when its device is unknown or
    /// its `syncfs` failed, so the caller flushes the file itself.
    private static func flushFileSystem(of fd: Int32, _ flushed: inout [UInt64: Bool]) -> Bool {
        guard let device = FileIO.device(fd) else { return false }
        return flushFileSystem(device, of: fd, &flushed)
    }

    /// Flushes `device`, which holds `fd`, unless this commit step did already (as above).
    private static func flushFileSystem(_ device: UInt64, of fd: Int32, _ flushed: inout [UInt64: Bool]) -> Bool {
        if flushed[device] == nil { flushed[device] = FileIO.syncFileSystem(fd) == 0 }
        return flushed[device] ?? false
    }
}
