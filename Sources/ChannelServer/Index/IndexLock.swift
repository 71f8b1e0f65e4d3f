// One index, one writer at a time across processes. Several processes may share a cache folder
// (servers of the same export, `oceq` one-shots opening the bundled sample, a whole test suite's
// children). An index is two files renamed into place one after the other; a process that found no
// usable pair builds its own and renames it over the names. Two processes doing that at once (a
// cold cache) replaced each other's pair: SQLite opens a file by its name (it resolves even a
// `/proc/self/fd/N` link to the name), so the connections the first one opened afterwards found
// its files deleted ("unable to open database file"), or, before IndexFiles, another build's side
// file. With this lock, checking, building, renaming and deleting a pair hold it exclusively, and a
// restart checks its pair under a shared lock: the second builder waits, then reuses the pair the
// first one built. A pair in use is only ever replaced by a build that found it unusable (another
// schema or other items).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An advisory lock (`flock`) on the lock file beside an index's files, held until released.
final class IndexLock {
    private let descriptor: Int32

    /// Waits for the lock of the index whose main file is at `indexPath`: shared (to check a pair and
    /// open it) or exclusive (to build, rename or delete one).
    init(index indexPath: String, exclusive: Bool) throws(IndexStorageError) {
        let path = indexPath + ".lock"
        // Never follows a link planted under the lock's name.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw IndexStorageError(code: errno, message: "cannot open \(path)") }
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(descriptor)
                throw IndexStorageError(code: code, message: "cannot lock \(path)")
            }
        }
        self.descriptor = descriptor
    }

    /// Releases the lock.
    deinit { close(descriptor) }
}
