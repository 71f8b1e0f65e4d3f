// Small POSIX file helpers for the export reader.
//
// Design: reading 100 000 item files must take seconds, so listing uses opendir/readdir (with
// d_type, no stat per entry) and reading uses open/fstat/read into one exact-size buffer. Errors
// come back as `errno` text so callers can name the file in a one-line message.

import Glibc

/// What a path is on disk (symbolic links followed).
enum FileKind: Sendable, Equatable {
    case missing
    case directory
    case regular
    case other
}

/// A file-system failure with the `errno` text.
struct FileSystemError: Error, Sendable, CustomStringConvertible {
    var path: String
    var reason: String
    var code: Int32

    var description: String { "\(path): \(reason)" }

    init(path: String, code: Int32) {
        self.path = path
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    init(path: String, reason: String) {
        self.path = path
        self.code = 0
        self.reason = reason
    }
}

/// One entry of a directory listing.
struct DirectoryEntry: Sendable {
    var name: String
    var kind: FileKind
}

enum FileSystem {
    /// The kind of `path`, following symbolic links.
    static func kind(_ path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return kind(mode: info.st_mode)
    }

    static func kind(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// `stat` of `path`, or the errno on failure.
    static func status(_ path: String) -> Result<stat, FileSystemError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(FileSystemError(path: path, code: errno)) }
        return .success(info)
    }

    /// The size in bytes of a regular file, or nil.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, kind(mode: info.st_mode) == .regular else { return nil }
        return Int(info.st_size)
    }

    /// The entries of a directory (without `.` and `..`), sorted by name (byte order).
    static func list(_ path: String) throws(FileSystemError) -> [DirectoryEntry] {
        guard let dir = opendir(path) else { throw FileSystemError(path: path, code: errno) }
        defer { closedir(dir) }
        var entries: [DirectoryEntry] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            let kind: FileKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .regular
            case Int32(DT_LNK), Int32(DT_UNKNOWN): kind = FileSystem.kind(path + "/" + name)
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
        entries.sort { bytewiseLess($0.name, $1.name) }
        return entries
    }

    /// Byte-order comparison of the UTF-8 forms (the order `ls` shows in the C locale).
    static func bytewiseLess(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs
        var right = rhs
        return left.withUTF8 { a in
            right.withUTF8 { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }

    /// The whole content of a regular file.
    static func read(_ path: String, limit: Int = 1 << 30) throws(FileSystemError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
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

    /// Up to `count` bytes of `path` starting at `offset` (fewer at the end of the file).
    static func read(_ path: String, offset: Int, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd: fd, offset: offset, count: count)
    }

    static func read(fd: Int32, offset: Int, count: Int) -> [UInt8]? {
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

    /// Writes `bytes` to `path`, replacing it.
    static func write(_ bytes: [UInt8], to path: String) throws(FileSystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(fd) }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += n
            }
        }
        if failure != 0 { throw FileSystemError(path: path, code: failure) }
    }

    /// Creates `path` and its missing parents.
    static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileSystemError) {
        if kind(path) == .directory { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) != 0 && errno != EEXIST {
                throw FileSystemError(path: prefix, code: errno)
            }
        }
        guard kind(path) == .directory else { throw FileSystemError(path: path, reason: "not a directory") }
    }

    /// The canonical absolute path (symbolic links resolved), or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Removes a file or a whole directory tree; missing paths are fine. Never follows symbolic links.
    static func removeTree(_ path: String) {
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
    static func isReadable(_ path: String, directory: Bool) -> Bool {
        access(path, directory ? (R_OK | X_OK) : R_OK) == 0
    }

    /// An absolute version of `path` (relative to the working directory), without resolving links.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return cwd == "/" ? "/" + path : cwd + "/" + path
    }
}
