// The one POSIX file helper of the package: the export reader's listing and reading, and the
// download writer's opening, writing, renaming and flushing (DeliveryKit's `FileIO` maps its
// errors to `DeliveryError` and adds the calls that need C shims: xattrs, syncfs).
//
// Design: reading 100 000 item files must take seconds, so listing uses opendir/readdir (with
// d_type, no stat per entry) and reading uses open/fstat/read into one exact-size buffer. Files
// are written with `O_NOFOLLOW`, so a planted symbolic link cannot send bytes outside a folder.
// The export reader's `inside:` variants follow a link only when it resolves inside the export
// (checked on the opened descriptor, so it cannot be raced); `ContainedDirectory` is the writer's
// descriptor-relative folder.
// Errors come back with the `errno` so callers can name the file in a one-line message.

import Glibc

/// What a path is on disk (symbolic links followed).
package enum FileKind: Sendable, Equatable {
    /// Nothing there (or it cannot be seen).
    case missing
    /// A folder.
    case directory
    /// A regular file.
    case regular
    /// A device, socket, FIFO or dangling link.
    case other
}

/// A file-system failure with the `errno` text.
package struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The file the call was about.
    package var path: String
    /// What went wrong, in words (`strerror` for a failed call).
    package var reason: String
    /// The `errno`, or 0 for a check of the helper's own.
    package var code: Int32

    package var description: String { "\(path): \(reason)" }

    /// A failed call on `path` with `errno` `code`.
    package init(path: String, code: Int32) {
        self.path = path
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    /// A check of the helper's own failed on `path`.
    package init(path: String, reason: String) {
        self.path = path
        self.code = 0
        self.reason = reason
    }
}

/// One entry of a directory listing.
package struct DirectoryEntry: Sendable {
    /// The entry's name in its folder.
    package var name: String
    /// What it is (symbolic links followed).
    package var kind: FileKind
    /// True when the entry itself is a symbolic link.
    package var isLink = false
}

/// POSIX file operations on paths and descriptors.
package enum FileSystem {
    /// The kind of `path`, following symbolic links.
    package static func kind(_ path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return kind(mode: info.st_mode)
    }

    /// The kind a `st_mode` names.
    package static func kind(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// `stat` of `path`, or the errno on failure.
    package static func status(_ path: String) -> Result<stat, FileSystemError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(FileSystemError(path: path, code: errno)) }
        return .success(info)
    }

    /// The size in bytes of a regular file, or nil. With `followingLinks` false a symbolic link is
    /// not a regular file (`lstat`): a link planted as a part is never measured, resumed or renamed.
    package static func fileSize(_ path: String, followingLinks: Bool = true) -> Int? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0, kind(mode: info.st_mode) == .regular
        else { return nil }
        return Int(info.st_size)
    }

    /// The entries of a directory (without `.` and `..`), sorted by name (byte order).
    package static func list(_ path: String) throws(FileSystemError) -> [DirectoryEntry] {
        guard let dir = opendir(path) else { throw FileSystemError(path: path, code: errno) }
        defer { closedir(dir) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let kind: FileKind
            var isLink = false
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK), Int32(DT_UNKNOWN):
                var info = stat()
                isLink = lstat(path + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
                kind = FileSystem.kind(path + "/" + name)
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind, isLink: isLink))
        }
        entries.sort { bytewiseLess($0.name, $1.name) }
        return entries
    }

    /// Byte-order comparison of the UTF-8 forms (the order `ls` shows in the C locale).
    /// Native strings are compared in place; others through a contiguous copy (`withUTF8` on a copy
    /// of each, which for native strings also costs two retains and releases per comparison: a third
    /// of sorting a folder of 200,000 item files).
    package static func bytewiseLess(_ lhs: String, _ rhs: String) -> Bool {
        if let inPlace = lhs.utf8.withContiguousStorageIfAvailable({ a in
            rhs.utf8.withContiguousStorageIfAvailable { b in bytewiseLess(a, b) }
        }), let inPlace {
            return inPlace
        }
        var left = lhs
        var right = rhs
        return left.withUTF8 { a in right.withUTF8 { b in bytewiseLess(a, b) } }
    }

    /// Byte-order comparison of two byte buffers (a proper prefix comes first).
    @inline(__always)
    private static func bytewiseLess(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order != 0 ? order < 0 : a.count < b.count
    }

    /// The whole content of a regular file.
    package static func read(_ path: String, limit: Int = 1 << 30) throws(FileSystemError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        return try read(fd: fd, path: path, limit: limit)
    }

    /// Everything left to read from `fd` (a file, a pipe, a terminal) until its end; the descriptor stays open.
    /// Nil when a read fails (for another reason than an interruption).
    package static func readToEnd(fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// The whole content of the regular file open as `fd` (closed here), named `path` in errors.
    package static func read(fd: Int32, path: String, limit: Int = 1 << 30) throws(FileSystemError) -> [UInt8] {
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(path: path, code: errno) }
        guard kind(mode: info.st_mode) == .regular else {
            throw FileSystemError(path: path, reason: "not a regular file")
        }
        let expected = Int(info.st_size)
        guard expected <= limit else { throw FileSystemError(path: path, reason: "file too large (\(expected) bytes)") }
        var bytes = [UInt8](repeating: 0, count: expected)
        var filled = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            while filled < expected {
                let count = Glibc.read(fd, buffer.baseAddress! + filled, expected - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { break }
                filled += count
            }
        }
        if failure != 0 { throw FileSystemError(path: path, code: failure) }
        if filled < expected { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// The whole content of the regular file `path`, when it lies inside the folder `root` (a
    /// canonical path, see `realPath`) once its links are resolved; a file reached through a link
    /// out of `root` is refused. The check is on the opened file, so it cannot be raced.
    package static func read(
        _ path: String, inside root: String, limit: Int = 1 << 30
    ) throws(FileSystemError)
        -> [UInt8]
    {
        try read(fd: openInside(path, root: root), path: path, limit: limit)
    }

    /// Opens `path` for reading when the file it reaches lies inside `root` (a canonical path);
    /// otherwise fails with "outside the export". The caller closes the descriptor.
    package static func openInside(_ path: String, root: String) throws(FileSystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        guard let opened = openedPath(fd), isInside(opened, root: root) else {
            close(fd)
            throw FileSystemError(path: path, reason: "is a link to a file outside \(root); not followed")
        }
        return fd
    }

    /// The canonical path of the file open as `fd`, as the kernel names it (one `readlink` of
    /// `/proc/self/fd/N`), or nil.
    package static func openedPath(_ fd: Int32) -> String? {
        // On the stack, not a zero-filled array: this runs once per file request (`reaches`).
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) { buffer in
            let count = readlink("/proc/self/fd/\(fd)", buffer.baseAddress!, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
        }
    }

    /// True when the canonical path `resolved` is `root` or lies under it.
    package static func isInside(_ resolved: String, root: String) -> Bool {
        if root == "/" { return resolved.hasPrefix("/") }
        return resolved == root || resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// True when `path`, its links resolved, exists and lies inside `root` (a canonical path).
    package static func resolves(_ path: String, inside root: String) -> Bool {
        guard let resolved = realPath(path) else { return false }
        return isInside(resolved, root: root)
    }

    /// Linux's `O_PATH` (octal 010000000 on x86_64 and arm64), which Glibc's module does
    /// not export (it is defined only under `_GNU_SOURCE`).
    static let oPath: Int32 = 0o1000_0000

    /// `resolves(_:inside:)` in three calls instead of one `readlink` per component of the path
    /// (`realpath`): the kernel walks the path once (an `O_PATH` open, which reads nothing) and
    /// names the file it reached. Falls back to `resolves` when `/proc` is not mounted.
    package static func reaches(_ path: String, inside root: String) -> Bool {
        let fd = open(path, oPath | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let opened = openedPath(fd) else { return resolves(path, inside: root) }
        return isInside(opened, root: root)
    }

    /// The entries of a folder that lie inside `root` (a canonical path) once links are resolved:
    /// a link out of `root` (or a folder reached through one) lists as `.other`, so it is skipped by
    /// callers that take only folders and regular files.
    package static func list(_ path: String, inside root: String) throws(FileSystemError) -> [DirectoryEntry] {
        guard resolves(path, inside: root) else {
            throw FileSystemError(path: path, reason: "is a link to a folder outside \(root); not followed")
        }
        var entries = try list(path)
        for index in entries.indices
        where entries[index].isLink && !resolves(path + "/" + entries[index].name, inside: root) {
            entries[index].kind = .other
        }
        return entries
    }

    /// Up to `count` bytes of `path` starting at `offset` (fewer at the end of the file).
    package static func read(_ path: String, offset: Int, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd: fd, offset: offset, count: count)
    }

    /// Up to `count` bytes of the open file `fd` starting at `offset` (`pread`; fewer at the end).
    package static func read(fd: Int32, offset: Int, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        let ok = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while filled < count {
                let n = pread(fd, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if n == 0 { break }
                filled += n
            }
            return true
        }
        guard ok else { return nil }
        if filled < count { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// Writes `bytes` to `path`, replacing it (a symbolic link there is refused).
    package static func write(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        let fd = try openForWriting(path, append: false)
        defer { close(fd) }
        var failure: FileSystemError?
        bytes.withUnsafeBytes { buffer in
            do throws(FileSystemError) {
                try writeAll(fd, buffer, path: path)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Opens `path` for writing: truncated, or appended to, with `flags` besides (a caller's
    /// `O_DIRECT`). A symbolic link there is refused (`O_NOFOLLOW`), so a planted link cannot send the
    /// bytes outside their folder.
    package static func openForWriting(
        _ path: String, append: Bool, flags extra: Int32 = 0
    ) throws(FileSystemError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (append ? O_APPEND : O_TRUNC) | extra
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        return fd
    }

    /// Opens an existing regular file for writing without changing it (a symbolic link is refused).
    package static func openExisting(_ path: String) throws(FileSystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        return fd
    }

    /// Opens a folder for reading (for `fsync`), or returns -1.
    package static func openFolder(_ path: String) -> Int32 {
        open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and interruptions.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) {
        var written = 0
        try writeAll(fd, bytes, path: path, written: &written)
    }

    /// The same, counting in `written` the bytes written so far, which a caller that catches the
    /// error carries on from.
    package static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String, written: inout Int
    ) throws(FileSystemError) {
        guard let base = bytes.baseAddress else { return }
        while written < bytes.count {
            let count = Glibc.write(fd, base + written, bytes.count - written)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, code: errno)
            }
            written += count
        }
    }

    /// `fsync` of an open file.
    package static func sync(_ fd: Int32, path: String) throws(FileSystemError) {
        if fsync(fd) != 0 { throw FileSystemError(path: path, code: errno) }
    }

    /// Flushes a folder's entries (so a rename in it survives a crash); failures are ignored.
    package static func syncDirectory(_ path: String) {
        let fd = openFolder(path)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = Glibc.close(fd)
    }

    /// The device of an open file, or nil.
    package static func device(_ fd: Int32) -> UInt64? {
        openFileFacts(fd)?.device
    }

    /// The size and device of an open file (one `fstat`), or nil.
    package static func openFileFacts(_ fd: Int32) -> (size: Int64, device: UInt64)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (Int64(info.st_size), UInt64(info.st_dev))
    }

    /// Raises the soft limit on open descriptors to the hard limit (once is enough: a later call finds
    /// them equal); returns the soft limit in force. The server holds a descriptor per connection; a
    /// download holds one per file between its transfer and its name.
    @discardableResult
    package static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(clamping: limit.rlim_cur)
    }

    /// Closes a descriptor.
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Renames `from` to `to` (atomically, on one file system).
    package static func rename(_ from: String, _ to: String) throws(FileSystemError) {
        if Glibc.rename(from, to) != 0 { throw FileSystemError(path: to, code: errno) }
    }

    /// Removes a file (not a folder); a missing one is fine.
    package static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Creates `path` and its missing parents.
    package static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileSystemError) {
        switch kind(path) {
        case .directory: return
        case .regular, .other: throw FileSystemError(path: path, code: ENOTDIR)
        case .missing: break
        }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST {
                throw FileSystemError(path: prefix, code: errno)
            }
        }
        guard kind(path) == .directory else { throw FileSystemError(path: path, code: ENOTDIR) }
    }

    /// The canonical absolute path (symbolic links resolved), or nil.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes a file or a whole directory tree; missing paths are fine. Never follows symbolic links.
    package static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            if let entries = try? list(path) {
                for entry in entries { removeTree(path + "/" + entry.name) }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// `access(path, R_OK)` (plus `X_OK` for directories).
    package static func isReadable(_ path: String, directory: Bool) -> Bool {
        access(path, directory ? (R_OK | X_OK) : R_OK) == 0
    }

    /// An absolute version of `path` (relative to the working directory), without resolving links.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return cwd == "/" ? "/" + path : cwd + "/" + path
    }
}
