// A small file that a download pool publishes with its last batch of files (a download folder's
// manifest), so that it costs no flush of its own: the commit writes it to `temporary` beside the
// parts before the batch's flush of their bytes (which flushes it too), renames it to `path` after
// the parts' renames and flushes that rename with theirs. Written separately it took two more
// flushes after the last file (its bytes, then its folder), one to a few milliseconds each.
//
// It is published only when every file of that batch was: if one fails, its temporary file is
// removed and `published` stays false, and the caller writes it the ordinary way. It is never
// renamed before the batch's files are, so a crash leaves it listing no more than the files
// renamed before it (and on a journalling file system, whose metadata commits in order, none
// whose rename is not on the disk with it).
import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A small file published together with the last batch of a download pool.
public final class DownloadCompanion: Sendable {
    /// Its final path.
    public let path: String
    /// Where it is written before the rename (in the same folder).
    public let temporary: String
    /// Makes its content; called once, on the commit's thread (encoding a manifest of 500 entries
    /// is no work for the pool's loop, which waits for the commit).
    let content: @Sendable () -> [UInt8]
    private let state = Locked(false)

    /// A companion whose bytes `content` makes, written to `temporary` and renamed to `path`.
    public init(path: String, temporary: String, content: @escaping @Sendable () -> [UInt8]) {
        self.path = path
        self.temporary = temporary
        self.content = content
    }

    /// Whether it was renamed to `path` with the batch and that rename flushed.
    public var published: Bool { state.withLock { $0 } }

    func markPublished() { state.withLock { $0 = true } }

    /// The folder of `path`.
    var folder: String { PathText.parent(of: path) }

    /// Writes `temporary` (`O_NOFOLLOW`: a link planted there is refused) and returns it open, or
    /// nil when it cannot be written (nothing is left behind).
    func write() -> Int32? {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return nil }
        let written = content().withUnsafeBytes { buffer in (try? FileIO.writeAll(fd, buffer, path: temporary)) != nil }
        if written { return fd }
        close(fd)
        unlink(temporary)
        return nil
    }

    /// Drops the temporary file (the batch did not commit whole).
    func discard() { unlink(temporary) }
}
