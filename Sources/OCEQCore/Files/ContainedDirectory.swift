// A folder that oceq writes into, held by a descriptor, so nothing written, renamed or deleted
// under it can leave it through a symbolic link planted inside.
//
// Design: the root is opened once (its own path may hold links: the user chose it); below it every
// path component is opened with `openat(O_DIRECTORY | O_NOFOLLOW)` relative to the descriptor of
// its parent, and files are created, renamed and removed with `openat`/`renameat`/`unlinkat`
// relative to the descriptor of their folder, with `O_NOFOLLOW`. A link anywhere on the way is an
// error naming it (`FileSystemError.isSymbolicLink`), never followed, and swapping a folder for a
// link after it was opened changes nothing: the descriptor still names the folder. Used by
// `mirror`, by downloads into a mirror's folders and by the server's cache.

import Glibc

/// A folder held open, under which every operation stays (no symbolic link is followed).
package final class ContainedDirectory: @unchecked Sendable {
    /// The folder's path, for messages.
    package let path: String
    /// The `O_DIRECTORY | O_NOFOLLOW` descriptor of the folder.
    package let fd: Int32

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { _ = Glibc.close(fd) }

    /// Opens the root folder `path` (created with its parents when `create` and missing). Links in
    /// `path` itself are followed: the root is the caller's choice.
    package convenience init(root path: String, create: Bool = false) throws(FileSystemError) {
        if create { try FileSystem.makeDirectories(path) }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystemError(path: path, code: errno) }
        self.init(fd: fd, path: path)
    }

    /// Opens a cache folder `path` (created with mode 0700 when missing) that must be the
    /// user's own: owned by this user and writable by no one else. A folder another user made
    /// (say `/tmp/oceq-<uid>` created first by someone else, or a link to their folder) is
    /// refused, since whoever can write in it could plant links or swap what is read from it.
    package convenience init(privateRoot path: String) throws(FileSystemError) {
        if FileSystem.kind(path) == .missing {
            let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            if !parent.isEmpty { try FileSystem.makeDirectories(parent) }
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw FileSystemError(path: path, code: errno) }
        }
        try self.init(root: path)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(path: path, code: errno) }
        guard info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw FileSystemError(
                path: path,
                reason: "is not a private folder of this user (owner \(info.st_uid), mode \(mode)); not used as a cache"
            )
        }
    }

    /// The message of a symbolic link found where a folder or file of oceq's was expected.
    package static func linkRefusal(_ path: String) -> FileSystemError {
        FileSystemError(path: path, reason: "is a symbolic link; oceq never writes or reads through links here")
    }

    /// The path of `relative` under this folder, for messages.
    package func display(_ relative: String) -> String {
        relative.isEmpty ? path : (path.hasSuffix("/") ? path + relative : path + "/" + relative)
    }

    /// The components of a relative path; `..`, absolute paths and NUL bytes are refused.
    static func components(_ relative: String, shown: String) throws(FileSystemError) -> [String] {
        guard !relative.hasPrefix("/"), !relative.utf8.contains(0) else {
            throw FileSystemError(path: shown, reason: "not a path inside the folder")
        }
        var parts: [String] = []
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." { throw FileSystemError(path: shown, reason: "not a path inside the folder") }
            parts.append(String(part))
        }
        return parts
    }

    /// The sub-folder at `relative` (a path of components, `""` for this folder itself), each
    /// component opened without following links and created when `create` and missing.
    package func folder(_ relative: String, create: Bool = false) throws(FileSystemError) -> ContainedDirectory {
        var current = try ContainedDirectory(fd: duplicate(), path: path)
        var walked = ""
        for part in try Self.components(relative, shown: display(relative)) {
            walked += walked.isEmpty ? part : "/" + part
            let shown = display(walked)
            var next = openat(current.fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && create {
                if mkdirat(current.fd, part, 0o755) != 0 && errno != EEXIST {
                    throw FileSystemError(path: shown, code: errno)
                }
                next = openat(current.fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard next >= 0 else {
                let code = errno
                if current.isLink(part) { throw Self.linkRefusal(shown) }
                throw FileSystemError(path: shown, code: code)
            }
            current = ContainedDirectory(fd: next, path: shown)
        }
        return current
    }

    private func duplicate() throws(FileSystemError) -> Int32 {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw FileSystemError(path: path, code: errno) }
        return copy
    }

    /// The folder holding `relative` and the last component's name.
    private func parent(of relative: String, create: Bool) throws(FileSystemError) -> (ContainedDirectory, String) {
        let parts = try Self.components(relative, shown: display(relative))
        guard let name = parts.last else { throw FileSystemError(path: display(relative), reason: "not a file name") }
        let folder = try self.folder(parts.dropLast().joined(separator: "/"), create: create)
        return (folder, name)
    }

    /// True when `name` (one component) is a symbolic link in this folder.
    package func isLink(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// What `relative` is, without following links (a link is `.other`; a linked folder on the way
    /// is `.missing`).
    package func kind(_ relative: String) -> FileKind {
        guard let (folder, name) = try? parent(of: relative, create: false) else { return .missing }
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        return FileSystem.kind(mode: info.st_mode)
    }

    /// The size of the regular file at `relative`, or nil (links are not followed).
    package func fileSize(_ relative: String) -> Int? {
        guard let (folder, name) = try? parent(of: relative, create: false) else { return nil }
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return nil
        }
        return Int(info.st_size)
    }

    /// The entries of this folder (without `.` and `..`), sorted by name; a symbolic link is `.other`.
    package func list() throws(FileSystemError) -> [DirectoryEntry] {
        let copy = try duplicate()
        guard let dir = fdopendir(copy) else {
            let code = errno
            _ = Glibc.close(copy)
            throw FileSystemError(path: path, code: code)
        }
        defer { closedir(dir) }
        var entries: [DirectoryEntry] = []
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(dir) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            var kind: FileKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_REG): kind = .regular
            case Int32(DT_UNKNOWN):
                var info = stat()
                kind =
                    fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileSystem.kind(mode: info.st_mode) : .missing
            default: kind = .other
            }
            entries.append(DirectoryEntry(name: name, kind: kind))
        }
        entries.sort { FileSystem.bytewiseLess($0.name, $1.name) }
        return entries
    }

    /// The symbolic links anywhere under this folder (relative paths), at most `limit` of them.
    package func links(limit: Int = 1) -> [String] {
        var found: [String] = []
        collectLinks(prefix: "", into: &found, limit: limit)
        return found
    }

    private func collectLinks(prefix: String, into found: inout [String], limit: Int) {
        guard let entries = try? list() else { return }
        for entry in entries where found.count < limit {
            let relative = prefix + entry.name
            if entry.kind == .other, isLink(entry.name) {
                found.append(relative)
            } else if entry.kind == .directory, let sub = try? folder(entry.name) {
                sub.collectLinks(prefix: relative + "/", into: &found, limit: limit)
            }
        }
    }

    /// The content of the regular file at `relative` (a link is refused).
    package func read(_ relative: String, limit: Int = 1 << 30) throws(FileSystemError) -> [UInt8] {
        let (folder, name) = try parent(of: relative, create: false)
        let file = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else {
            let code = errno
            if folder.isLink(name) { throw Self.linkRefusal(display(relative)) }
            throw FileSystemError(path: display(relative), code: code)
        }
        return try FileSystem.read(fd: file, path: display(relative), limit: limit)
    }

    /// Opens `relative` for writing (truncated or appended to; created with its folders), never
    /// through a link. The caller closes the descriptor.
    package func openForWriting(_ relative: String, append: Bool) throws(FileSystemError) -> Int32 {
        let (folder, name) = try parent(of: relative, create: true)
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (append ? O_APPEND : O_TRUNC)
        let file = openat(folder.fd, name, flags, 0o644)
        guard file >= 0 else {
            let code = errno
            if folder.isLink(name) { throw Self.linkRefusal(display(relative)) }
            throw FileSystemError(path: display(relative), code: code)
        }
        return file
    }

    /// Replaces `relative` with `bytes` atomically (a temporary file beside it, then a rename that
    /// replaces a link there rather than writing through it); its folders are created when missing.
    package func write(_ bytes: [UInt8], to relative: String) throws(FileSystemError) {
        let (folder, name) = try parent(of: relative, create: true)
        let temporary = ".\(name).oceq-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = openat(folder.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw FileSystemError(path: display(relative), code: errno) }
        var failure: FileSystemError?
        bytes.withUnsafeBytes { buffer in
            do throws(FileSystemError) {
                try FileSystem.writeAll(file, buffer, path: display(relative))
            } catch {
                failure = error
            }
        }
        _ = Glibc.close(file)
        if let failure {
            _ = unlinkat(folder.fd, temporary, 0)
            throw failure
        }
        guard renameat(folder.fd, temporary, folder.fd, name) == 0 else {
            let code = errno
            _ = unlinkat(folder.fd, temporary, 0)
            throw FileSystemError(path: display(relative), code: code)
        }
    }

    /// Renames `from` to `to`, both relative to this folder (a link is moved, never followed).
    package func rename(_ from: String, _ to: String) throws(FileSystemError) {
        let (source, oldName) = try parent(of: from, create: false)
        let (target, newName) = try parent(of: to, create: true)
        guard renameat(source.fd, oldName, target.fd, newName) == 0 else {
            throw FileSystemError(path: display(to), code: errno)
        }
    }

    /// Removes the file (or link) at `relative`; false when nothing was removed.
    @discardableResult
    package func remove(_ relative: String) -> Bool {
        guard let (folder, name) = try? parent(of: relative, create: false) else { return false }
        return unlinkat(folder.fd, name, 0) == 0
    }

    /// Removes `relative` and everything under it; a link is removed, never followed.
    @discardableResult
    package func removeTree(_ relative: String) -> Bool {
        guard let (folder, name) = try? parent(of: relative, create: false) else { return false }
        if unlinkat(folder.fd, name, 0) == 0 { return true }
        guard let sub = try? folder.folder(name) else { return false }
        for entry in (try? sub.list()) ?? [] { sub.removeTree(entry.name) }
        return unlinkat(folder.fd, name, AT_REMOVEDIR) == 0
    }

    /// Flushes this folder's entries; failures are ignored.
    package func sync() {
        _ = fsync(fd)
    }
}
