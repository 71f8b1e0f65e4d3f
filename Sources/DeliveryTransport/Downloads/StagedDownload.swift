// A download whose bytes are all in `<name>.part` (length checked, validator dropped, write-back
// started for a large file) but which is not durable or under its final name yet: the part's descriptor is still
// open, for the `fsync` that comes before the rename. A single download commits it at once; a
// batch hands it to `DownloadCommit`, which flushes several and renames them together.
import DeliveryKit
import OCEQCore

/// A complete part waiting for its `fsync` and rename.
struct StagedDownload: Sendable {
    let job: DownloadJob
    /// The open part; owned by this value until `sync` or `discard` closes it.
    let fd: Int32
    /// The device of the part's file system (measured with its size), whose `syncfs` flushes it.
    let device: UInt64
    /// The result once the part is renamed.
    let result: DownloadResult
    /// A `.part.meta` sidecar may exist and is removed after the rename.
    let sidecarMayExist: Bool
    /// The part's bytes went past the page cache (`FileIO.writeDirect`): at most its last partial
    /// block waits there for the flush.
    let writtenDirect: Bool

    /// Flushes the part's bytes to the disk and closes it: `fsync`, or, when its file system was
    /// just flushed as a whole (`syncfs` succeeded after the part's last write), a wait for its
    /// write-back that reports the part's own errors. An out-of-space failure removes the part (as
    /// a failed write does), any other leaves it for the next run to download again.
    func sync(fileSystemFlushed: Bool = false) throws(DeliveryError) {
        defer { FileIO.close(fd) }
        do {
            try FileIO.flush(fd, path: job.partPath, fileSystemFlushed: fileSystemFlushed)
        } catch {
            if error.isOutOfSpace {
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
            }
            throw error
        }
    }

    /// Renames the flushed part to its final name and drops its sidecar. The folder is not flushed.
    func publish() throws(DeliveryError) {
        try FileIO.rename(job.partPath, job.path)
        if sidecarMayExist { FileIO.remove(job.metaPath) }
    }

    /// Closes the part without committing it (it stays a `.part`).
    func discard() {
        FileIO.close(fd)
    }

    /// Flushes, renames and flushes the folder: one file made durable under its final name.
    func commitNow() throws(DeliveryError) -> DownloadResult {
        try sync()
        try publish()
        FileIO.syncDirectory(job.folder)
        return result
    }
}
