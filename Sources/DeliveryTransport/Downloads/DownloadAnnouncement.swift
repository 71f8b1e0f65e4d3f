// Lines a download pool appends to a file (a download folder's manifest journal) before it names the
// files they describe, so that a run killed between naming files and recording them (SIGKILL, a
// crash) leaves a record of them: the next run reads the journal and keeps those files instead of
// taking them for someone else's. Appended by the commit cycle that flushes the files' bytes, one
// cycle before the one that names them, and flushed with a cycle's `syncfs`. The file is opened once
// and kept open for the batch (`DownloadJournal`). Best effort: a journal that cannot be written (a
// link planted there, a full disk) leaves the download as it was without one.
import OCEQCore

/// A file that a batch appends to before it names files; opened at the first append, kept open
/// until `close`.
public final class DownloadJournal: Sendable {
    /// The file appended to.
    public let path: String
    /// The open file, -1 before the first append, -2 once it could not be opened or was closed.
    private let descriptor = Locked<Int32>(-1)

    /// A journal at `path` (in the folder of the files it describes).
    public init(path: String) {
        self.path = path
    }

    /// Appends `bytes` (`O_APPEND`, `O_NOFOLLOW`: never through a link); whether they all went.
    @discardableResult
    func append(_ bytes: [UInt8]) -> Bool {
        descriptor.withLock { fd -> Bool in
            if fd == -1 { fd = (try? FileSystem.openForWriting(path, append: true)) ?? -2 }
            guard fd >= 0 else { return false }
            return bytes.withUnsafeBytes { (try? FileIO.writeAll(fd, $0, path: path)) != nil }
        }
    }

    /// Closes the file (later appends do nothing).
    public func close() {
        descriptor.withLock { fd in
            if fd >= 0 { FileIO.close(fd) }
            fd = -2
        }
    }
}

/// What a cycle appends to a batch's journal before anything else it does.
public struct DownloadAnnouncement: Sendable {
    let journal: DownloadJournal
    /// Makes the bytes; called once, on the commit's thread.
    let content: @Sendable () -> [UInt8]

    /// `content`'s bytes, for `journal`.
    public init(journal: DownloadJournal, content: @escaping @Sendable () -> [UInt8]) {
        self.journal = journal
        self.content = content
    }

    /// Appends the bytes to the journal.
    func append() {
        journal.append(content())
    }
}
