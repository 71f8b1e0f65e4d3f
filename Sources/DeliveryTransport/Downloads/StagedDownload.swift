// A download whose bytes are all in its part (length checked, validator dropped, write-back started
// for a large file) but which is not durable or under its final name yet: the part's descriptor is
// still open, for the `fsync` that comes before the rename. The part is `<name>.part`, or a file with
// no name at all (a fresh file that arrived whole, `FileIO.openNamelessPart`), named only once its
// bytes are on the disk. A single download commits it at once; a batch hands it to `DownloadCommit`,
// which flushes several and renames them together.
import DeliveryKit
import OCEQCore

/// A complete part waiting for its `fsync` and rename.
struct StagedDownload: Sendable {
    let job: DownloadJob
    /// The open part; owned by this value until `sync` closes it (`publish`, for a nameless part).
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
    /// The part has no name (`FileIO.openNamelessPart`): `fd` is all there is of it, so it stays open
    /// after the flush, until `publish` names it `job.path` (closing it without a name drops it).
    var nameless = false

    /// Flushes the part's bytes to the disk and closes it: `fsync`, or, when its file system was
    /// just flushed as a whole (`syncfs` succeeded after the part's last write), a wait for its
    /// write-back that reports the part's own errors. An out-of-space failure removes the part (as
    /// a failed write does), any other leaves it for the next run to download again.
    /// A nameless part stays open for `publish` unless its flush fails (it is gone then).
    func sync(fileSystemFlushed: Bool = false) throws(DeliveryError) {
        do {
            try FileIO.flush(fd, path: job.partPath, fileSystemFlushed: fileSystemFlushed)
            if !nameless { FileIO.close(fd) }
        } catch {
            FileIO.close(fd)
            if error.isOutOfSpace && !nameless {
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
            }
            throw error
        }
    }

    /// Renames the flushed part to its final name (names a nameless one, and closes it) and drops its
    /// sidecar. The folder is not flushed.
    func publish() throws(DeliveryError) {
        if nameless {
            defer { FileIO.close(fd) }
            try FileIO.name(fd, as: job)
        } else {
            try FileIO.rename(job.partPath, job.path)
        }
        if sidecarMayExist { FileIO.remove(job.metaPath) }
    }

    /// Flushes, renames and flushes the folder: one file made durable under its final name.
    func commitNow() throws(DeliveryError) -> DownloadResult {
        try sync()
        try publish()
        FileIO.syncDirectory(job.folder)
        return result
    }
}
