// The file operations downloads need, with errors as `DeliveryError.file`: the plain POSIX ones
// are core's `FileSystem` (the package's one file helper); the ones that need C shims (syncfs,
// sync_file_range, xattrs) are here.

import CSystem
import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

enum FileIO {
    static func fail(_ path: String, _ operation: String, _ code: Int32 = errno) -> DeliveryError {
        .file(path: path, operation: operation, errno: code)
    }

    /// The `DeliveryError` for a failure of core's `FileSystem` while doing `operation`.
    static func fail(_ error: FileSystemError, _ operation: String) -> DeliveryError {
        .file(path: error.path, operation: operation, errno: error.code)
    }

    /// `body`, a call of core's `FileSystem`, with its failure named as `operation`.
    static func mapped<T>(_ operation: String, _ body: () throws(FileSystemError) -> T) throws(DeliveryError) -> T {
        do {
            return try body()
        } catch {
            throw fail(error, operation)
        }
    }

    /// The size of a regular file, or nil when there is none (a symbolic link is not followed: a
    /// link planted as a part is never measured, resumed or renamed, and opening it fails).
    static func size(_ path: String) -> Int64? {
        FileSystem.fileSize(path, followingLinks: false).map(Int64.init)
    }

    /// Creates `path` and its parents as directories when missing.
    static func makeDirectories(_ path: String) throws(DeliveryError) {
        do {
            try FileSystem.makeDirectories(path)
        } catch {
            throw fail(error, error.code == ENOTDIR && error.path == path ? "use as a folder" : "create folder")
        }
    }

    /// Creates `path`, a folder under `root`, opening every folder below `root` without following
    /// symbolic links: a link on the way is an error, never a way out of `root`.
    static func makeContainedDirectories(_ path: String, inside root: String) throws(DeliveryError) {
        let trimmed = root.hasSuffix("/") ? String(root.dropLast()) : root
        guard path == trimmed || path.hasPrefix(trimmed + "/") else {
            throw .file(path: path, operation: "use as a folder inside \(root)", errno: EXDEV)
        }
        do {
            _ = try ContainedDirectory(root: trimmed).folder(String(path.dropFirst(trimmed.count + 1)), create: true)
        } catch {
            throw fail(error, error.code == 0 ? "use as a folder (a symbolic link, not followed)" : "create folder")
        }
    }

    /// Opens `job`'s part for writing (`O_NOFOLLOW`). For a job `containedIn` a folder, the file
    /// actually opened must lie inside that folder (checked on the descriptor, so a folder swapped
    /// for a link after `makeContainedDirectories` cannot take the bytes elsewhere).
    /// A job not contained in a folder has its folder made here, when opening the part finds it
    /// missing: the folder is there for every file but the first of a batch, and making sure of it
    /// before each request cost a `stat` a file.
    /// With `direct`, the part is opened for writes past the page cache (`O_DIRECT`,
    /// `writeDirect`) where its file system takes them, else as usual (`direct` is then false).
    static func openPart(
        of job: DownloadJob, append: Bool, direct: inout Bool
    ) throws(DeliveryError) -> Int32 {
        let fd: Int32
        do {
            fd = try openForWriting(job.partPath, append: append, direct: &direct)
        } catch {
            // Missing, or a file where a folder should be: `makeDirectories` makes it or says why not.
            guard job.containedIn == nil, case .file(_, _, let code) = error, code == ENOENT || code == ENOTDIR else {
                throw error
            }
            try makeDirectories(job.folder)
            fd = try openForWriting(job.partPath, append: append, direct: &direct)
        }
        guard let root = job.containedIn else { return fd }
        let resolvedRoot = FileSystem.realPath(root) ?? root
        guard let opened = FileSystem.openedPath(fd), FileSystem.isInside(opened, root: resolvedRoot) else {
            close(fd)
            throw .file(path: job.partPath, operation: "open (it lies outside \(root) through a link)", errno: ELOOP)
        }
        return fd
    }

    /// Opens a nameless part for `job` in its folder (`O_TMPFILE`), to be named `job.path` by
    /// `name(_:as:)` once it is complete and flushed, or nil where that cannot be done: then the caller
    /// opens `job.partPath` (`openPart`), which makes a missing folder and names any error. A job
    /// `containedIn` a folder (a mirror) always gets a named part: its check reads the path opened.
    /// With `direct`, opened `O_DIRECT` where the file system takes it (else `direct` is set false).
    ///
    /// Why: a named part is created under the folder's lock and renamed under it again, and the pool's
    /// two threads creating parts waited for that lock, spinning, behind each other and the commit's
    /// renames (9 % of a 74-rendition download's CPU, `rwsem_spin_on_owner` under `openat`). A
    /// nameless file is created without the folder's lock and takes it once, to be named.
    static func openNamelessPart(of job: DownloadJob, direct: inout Bool) -> Int32? {
        guard job.containedIn == nil, !namelessRefused(in: job.folder) else { return nil }
        if direct {
            let fd = oceq_open_tmpfile(job.folder, oceq_o_direct())
            if fd >= 0 { return fd }
            guard errno == EINVAL else { return refusedNameless(errno, in: job.folder) }
            direct = false
        }
        let fd = oceq_open_tmpfile(job.folder, 0)
        return fd >= 0 ? fd : refusedNameless(errno, in: job.folder)
    }

    /// What the process has learnt of a folder's file system, for the rest of the process: how many
    /// direct writes into it were slow (`slowDirectWrite`), and whether it (or the kernel) refused a
    /// nameless file.
    private struct FolderFacts {
        var slowDirectWrites = 0
        var refusesNameless = false
    }

    /// By folder; empty (no lookup) while every folder behaves.
    private static let folderFacts = Locked<[String: FolderFacts]>([:])

    /// What is known of `folder`, the defaults when nothing is.
    private static func facts(of folder: String) -> FolderFacts {
        folderFacts.withLock { $0.isEmpty ? FolderFacts() : $0[folder] ?? FolderFacts() }
    }

    private static func namelessRefused(in folder: String) -> Bool { facts(of: folder).refusesNameless }

    /// Remembers a folder whose file system refuses `O_TMPFILE` (`code`); nil for the caller to return.
    private static func refusedNameless(_ code: Int32, in folder: String) -> Int32? {
        if code == EOPNOTSUPP || code == EISDIR || code == EINVAL {
            folderFacts.withLock { $0[folder, default: FolderFacts()].refusesNameless = true }
        }
        return nil
    }

    /// Names the complete, flushed nameless part open as `fd` (`openNamelessPart`) `job.path`. Where a
    /// file is already there (a download that replaces one), the part is named `job.partPath` first
    /// and renamed over it, as a named part would be. A failure leaves any `job.partPath` made.
    static func name(_ fd: Int32, as job: DownloadJob) throws(DeliveryError) {
        if oceq_link_open_file(fd, job.path) == 0 { return }
        guard errno == EEXIST else { throw fail(job.path, "name") }
        remove(job.partPath)
        if oceq_link_open_file(fd, job.partPath) != 0 { throw fail(job.partPath, "name") }
        try rename(job.partPath, job.path)
    }

    /// Opens `job`'s part for writing through the page cache (`openPart(of:append:direct:)`).
    static func openPart(of job: DownloadJob, append: Bool) throws(DeliveryError) -> Int32 {
        var direct = false
        return try openPart(of: job, append: append, direct: &direct)
    }

    /// Opens `path` for writing: truncated, or appended to. A symbolic link there is refused
    /// (`O_NOFOLLOW`), so a planted link cannot send a download outside its folder. With `direct`,
    /// opened `O_DIRECT`, or as usual where the file system refuses it (EINVAL: tmpfs before Linux
    /// 6.6, some FUSE and network file systems), `direct` then set to false.
    static func openForWriting(_ path: String, append: Bool, direct: inout Bool) throws(DeliveryError) -> Int32 {
        if direct {
            do {
                return try FileSystem.openForWriting(path, append: append, flags: oceq_o_direct())
            } catch {
                guard error.code == EINVAL else { throw fail(error, "open") }
                direct = false
            }
        }
        return try mapped("open") { () throws(FileSystemError) in try FileSystem.openForWriting(path, append: append) }
    }

    /// A direct write that takes longer than this shows a slow device (a spinning disk, a network or
    /// USB file system): waiting for it, file after file, on the download pool's threads costs more
    /// than the flush that writes many files' cached bytes together. A 60 KB write takes 0.05-0.3 ms
    /// on a local SSD or this project's VMs.
    static let slowDirectWrite = Duration.milliseconds(2)

    /// Slow direct writes (`slowDirectWrite`) after which a folder's files go through the page cache,
    /// for the rest of the process. More than one: a healthy disk has a slow write now and then (on
    /// this project's VMs, one or two in about one download of 500 renditions in seven).
    static let slowDirectWritesAllowed = 3

    /// Whether direct writes into `folder` were found slow.
    static func directIsSlow(in folder: String) -> Bool {
        facts(of: folder).slowDirectWrites >= slowDirectWritesAllowed
    }

    /// Records that a direct write into `folder` was slow.
    static func noteSlowDirect(in folder: String) {
        folderFacts.withLock { $0[folder, default: FolderFacts()].slowDirectWrites += 1 }
    }

    /// Writes past the page cache (`O_DIRECT`) are of whole blocks of this many bytes, from memory
    /// aligned to it and at offsets that are multiples of it: a page, which covers disks of 512-byte
    /// and of 4 KiB blocks.
    static let directBlock = 4096

    /// Writes `bytes` to a part opened `O_DIRECT` (`openForWriting(_:append:direct:)`), from where
    /// `fd` stands (a fresh part: its start): their whole blocks straight to the disk, then `O_DIRECT`
    /// off and the last partial block through the page cache. A file system that refuses the direct
    /// write (EINVAL: it wants larger blocks, or offsets on its own block boundaries) gets the bytes it
    /// refused through the page cache, from the first one not written; nothing is lost either way. On
    /// return `fd` writes through the page cache.
    ///
    /// Why: a download flushes every byte to the disk before it names the file, so copying the bytes
    /// into the page cache first is work that buys nothing. That copy was a third of the CPU of a
    /// download of 500 renditions on this project's VMs (the page cache's fresh pages are faulted
    /// in there), and one `O_DIRECT` write of a 60 KB file costs less than the copy alone.
    static func writeDirect(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(DeliveryError) {
        guard let base = bytes.baseAddress else {
            _ = oceq_stop_direct(fd)
            return
        }
        let whole = bytes.count / directBlock * directBlock
        var done = 0
        if whole > 0 && Int(bitPattern: base) % directBlock == 0 {
            do {
                try mapped("write") { () throws(FileSystemError) in
                    try FileSystem.writeAll(
                        fd, UnsafeRawBufferPointer(start: base, count: whole), path: path, written: &done)
                }
            } catch {
                // EINVAL: the file system wants larger blocks or other offsets, or a short write left
                // the rest off a block. What is not written yet (`done` counts what was) goes through
                // the page cache, from where the writes got to.
                guard case .file(_, _, EINVAL) = error else { throw error }
            }
        }
        if oceq_stop_direct(fd) != 0 { throw fail(path, "write") }
        try writeAll(fd, UnsafeRawBufferPointer(start: base + done, count: bytes.count - done), path: path)
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(DeliveryError) {
        try mapped("write") { () throws(FileSystemError) in try FileSystem.writeAll(fd, bytes, path: path) }
    }

    static func sync(_ fd: Int32, path: String) throws(DeliveryError) {
        try mapped("flush") { () throws(FileSystemError) in try FileSystem.sync(fd, path: path) }
    }

    /// Writes out and commits the whole file system holding `fd` (`syncfs`): one journal commit and
    /// one cache flush for every file written there. Returns 0, or the errno of a failure (any
    /// write-back error on that file system since `fd` was opened, on Linux 5.8 and later).
    static func syncFileSystem(_ fd: Int32) -> Int32 {
        oceq_syncfs(fd) == 0 ? 0 : errno
    }

    /// Waits for write-back of a file's pages (after `syncFileSystem`, they are already on the
    /// disk) and reports that file's own write-back errors, without another commit or flush. Where
    /// the file system does not do `sync_file_range`, the file is `fsync`ed instead.
    static func awaitWriteBack(_ fd: Int32, path: String) throws(DeliveryError) {
        guard oceq_sync_file_range_wait(fd) != 0 else { return }
        let code = errno
        if code == ENOSYS || code == EINVAL || code == ESPIPE || code == EOPNOTSUPP {
            try sync(fd, path: path)
        } else {
            throw fail(path, "flush", code)
        }
    }

    /// Puts `fd`'s bytes on the disk: when its file system was just flushed (`fileSystemFlushed`), by
    /// awaiting its own write-back (`awaitWriteBack`), else by an `fsync`.
    static func flush(_ fd: Int32, path: String, fileSystemFlushed: Bool) throws(DeliveryError) {
        if fileSystemFlushed {
            try awaitWriteBack(fd, path: path)
        } else {
            try sync(fd, path: path)
        }
    }

    /// The device of an open file, or nil.
    static func device(_ fd: Int32) -> UInt64? {
        FileSystem.device(fd)
    }

    /// The size and device of an open file, or nil.
    static func openFileFacts(_ fd: Int32) -> (size: Int64, device: UInt64)? {
        FileSystem.openFileFacts(fd)
    }

    /// Opens a folder for reading (`fsync`, `syncfs`), or returns -1.
    static func openFolder(_ path: String) -> Int32 {
        FileSystem.openFolder(path)
    }

    /// Starts write-back of `length` bytes at `offset` without waiting (Linux `sync_file_range`), so
    /// a later `fsync` has little left to write. Best effort: failures are ignored.
    static func startWriteBack(_ fd: Int32, offset: Int64, length: Int64) {
        _ = oceq_sync_file_range_write(fd, offset, length)
    }

    /// The extended attribute that holds a part's resume validator.
    static let validatorAttribute = "user.oceq.validator"

    /// Whether an xattr call failed because the filesystem (or its mount) does not do user xattrs.
    static func xattrUnsupported(_ code: Int32) -> Bool {
        code == ENOTSUP || code == EOPNOTSUPP || code == ENOSYS || code == EPERM || code == EACCES
    }

    /// Sets an extended attribute on an open file; false when the filesystem refuses user xattrs.
    static func setAttribute(_ fd: Int32, _ name: String, _ bytes: [UInt8], path: String) throws(DeliveryError) -> Bool
    {
        let status = bytes.withUnsafeBytes { oceq_fsetxattr(fd, name, $0.baseAddress, $0.count) }
        if status == 0 { return true }
        let code = errno
        if xattrUnsupported(code) { return false }
        throw fail(path, "set \(name) on", code)
    }

    /// Removes an extended attribute from an open file or a path; a missing one is fine.
    static func removeAttribute(_ fd: Int32, _ name: String) {
        _ = oceq_fremovexattr(fd, name)
    }

    static func removeAttribute(_ path: String, _ name: String) {
        _ = oceq_removexattr(path, name)
    }

    /// A file's extended attribute (at most 64 KiB), or nil when it has none or cannot have any.
    static func attribute(_ path: String, _ name: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        var count = buffer.withUnsafeMutableBytes { oceq_getxattr(path, name, $0.baseAddress, $0.count) }
        if count < 0 && errno == ERANGE {
            let needed = oceq_getxattr(path, name, nil, 0)
            guard needed > 0, needed <= 1 << 16 else { return nil }
            buffer = [UInt8](repeating: 0, count: needed)
            count = buffer.withUnsafeMutableBytes { oceq_getxattr(path, name, $0.baseAddress, $0.count) }
        }
        guard count >= 0 else { return nil }
        return Array(buffer[0..<count])
    }

    /// Opens an existing regular file for its flush (a symbolic link is refused).
    static func openExisting(_ path: String) throws(DeliveryError) -> Int32 {
        return try mapped("open") { () throws(FileSystemError) in try FileSystem.openExisting(path) }
    }

    static func close(_ fd: Int32) {
        FileSystem.close(fd)
    }

    static func rename(_ from: String, _ to: String) throws(DeliveryError) {
        try mapped("rename \(from) to") { () throws(FileSystemError) in try FileSystem.rename(from, to) }
    }

    static func remove(_ path: String) {
        FileSystem.remove(path)
    }

    /// Flushes a folder's entries (so a rename survives a crash); failures are ignored.
    static func syncDirectory(_ path: String) {
        FileSystem.syncDirectory(path)
    }

    /// A small file's bytes (at most `limit`), or nil.
    static func read(_ path: String, limit: Int = 1 << 16) -> [UInt8]? {
        try? FileSystem.read(path, limit: limit)
    }

    /// Replaces a small file's content.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(DeliveryError) {
        try mapped("write") { () throws(FileSystemError) in try FileSystem.write(bytes, to: path) }
    }
}
