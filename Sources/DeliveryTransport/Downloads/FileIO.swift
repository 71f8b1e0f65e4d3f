// The few POSIX file operations downloads need, with errors as `DeliveryError.file`.

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

    /// The size of a regular file, or nil when there is none (a symbolic link is not followed: a
    /// link planted as a part is never measured, resumed or renamed, and opening it fails).
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Creates `path` and its parents as directories when missing.
    static func makeDirectories(_ path: String) throws(DeliveryError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw fail(path, "use as a folder", ENOTDIR) }
            return
        }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw fail(prefix, "create folder") }
            prefix += "/"
        }
    }

    /// Opens `path` for writing: truncated, or appended to. A symbolic link there is refused
    /// (`O_NOFOLLOW`), so a planted link cannot send a download outside its folder.
    static func openForWriting(_ path: String, append: Bool) throws(DeliveryError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (append ? O_APPEND : O_TRUNC)
        let fd = open(path, flags, 0o644)
        if fd < 0 { throw fail(path, "open") }
        return fd
    }

    /// Writes all of `bytes`, retrying short writes and interruptions.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(DeliveryError) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = Glibc.write(fd, base, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw fail(path, "write")
            }
            left -= written
            base += written
        }
    }

    static func sync(_ fd: Int32, path: String) throws(DeliveryError) {
        if fsync(fd) != 0 { throw fail(path, "flush") }
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

    /// The device of an open file, or nil.
    static func device(_ fd: Int32) -> UInt64? {
        var info = stat()
        return fstat(fd, &info) == 0 ? UInt64(info.st_dev) : nil
    }

    /// Opens a folder for reading (`fsync`, `syncfs`), or returns -1.
    static func openFolder(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
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
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        if fd < 0 { throw fail(path, "open") }
        return fd
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    static func rename(_ from: String, _ to: String) throws(DeliveryError) {
        if Glibc.rename(from, to) != 0 { throw fail(to, "rename \(from) to") }
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Flushes a folder's entries (so a rename survives a crash); failures are ignored.
    static func syncDirectory(_ path: String) {
        let fd = openFolder(path)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = Glibc.close(fd)
    }

    /// A small file's bytes, or nil.
    static func read(_ path: String, limit: Int = 1 << 16) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            out.append(contentsOf: buffer[0..<count])
        }
        return out
    }

    /// Replaces a small file's content.
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(DeliveryError) {
        let fd = try openForWriting(path, append: false)
        defer { close(fd) }
        var failure: DeliveryError?
        bytes.withUnsafeBytes { buffer in
            do throws(DeliveryError) {
                try writeAll(fd, buffer, path: path)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
