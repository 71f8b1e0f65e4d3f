// The target folder, checked before any transfer starts: created with its parents when missing,
// refused when it is not a folder, and proved writable by creating and removing a probe file, so
// that a read-only or impossible folder is one clear error instead of a failure per file.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Checks on a download folder.
enum DownloadFolder {
    /// Creates `path` when missing and checks that files can be written in it; the error is one
    /// line naming the folder as the user wrote it (`shown`). Returns the folders it created, outermost
    /// first, so that a download that writes nothing can take them away again (`removeCreated`).
    @discardableResult
    static func prepare(_ path: String, shown: String) throws(FolderError) -> [String] {
        var created: [String] = []
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw FolderError(message: "cannot download to \(shown): it is not a folder")
            }
        } else {
            var prefix = path.hasPrefix("/") ? "/" : ""
            for component in path.split(separator: "/") {
                prefix += component
                if mkdir(prefix, 0o755) == 0 {
                    created.append(prefix)
                } else if errno != EEXIST {
                    let reason = String(cString: strerror(errno))
                    removeCreated(created)
                    throw FolderError(message: "cannot create the folder \(shown): \(reason) (nothing was downloaded)")
                }
                prefix += "/"
            }
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                removeCreated(created)
                throw FolderError(message: "cannot create the folder \(shown) (nothing was downloaded)")
            }
        }
        let probe = path + "/.oceq-write-probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            removeCreated(created)
            throw FolderError(message: "cannot write in the folder \(shown): \(reason) (nothing was downloaded)")
        }
        close(fd)
        unlink(probe)
        return created
    }

    /// Removes the folders `prepare` created (innermost first), each only while it is empty: `rmdir`
    /// never takes a file with it, so a folder something else wrote into stays.
    static func removeCreated(_ created: [String]) {
        for folder in created.reversed() where rmdir(folder) != 0 { return }
    }

    /// The names in `path` (none when it cannot be read), but `.` and `..`.
    static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        // The name is read in place: readdir's entry is only as long as its name (d_reclen), so
        // copying the whole `dirent` would read past it (AddressSanitizer caught that).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The size of the regular file at `path`, or nil.
    static func size(of path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}

/// A folder that cannot take the downloads.
struct FolderError: Error {
    /// The one-line message.
    var message: String
}
