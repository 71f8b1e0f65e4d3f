// The index's two files (IndexSchema: the main file and its side file), held open by this process
// for as long as an index uses them.
//
// Every read connection opens the files through these descriptors' names (`/proc/self/fd/N`).
// SQLite's unix VFS opens names with O_NOFOLLOW, so it resolves the link to the file's current name
// first. A connection therefore follows a file that was renamed (a build's `.part` files, opened here
// before their renames), and cannot open one that another process deleted or renamed over: the link
// then names "NAME (deleted)", and the open fails (a 500 that says the index cannot be read). Opening
// the final names instead would, in that case, silently read the other process's pair, perhaps of
// another schema: that is what the descriptors buy. They do not pin the pair (session 8 believed
// they did; IndexFilesTests opens genuinely new connections and showed otherwise). What keeps a pair
// in use from being replaced is `IndexLock`: processes sharing the cache check, build, rename and
// delete pairs one at a time.

import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Open descriptors of an index's main file and side file.
final class IndexFiles: Sendable {
    private let main: Int32
    private let side: Int32
    /// The name a connection opens for the main file: its descriptor's `/proc/self/fd` name, or,
    /// where /proc is not mounted (a bare chroot), the file's final name, with the race above.
    let mainName: String
    /// The same for the side file.
    let sideName: String

    /// Whether this process can open its descriptors by name.
    private static let procMounted = access("/proc/self/fd", X_OK) == 0

    /// Opens the main file at `path` and its side file, read-only.
    convenience init(path: String) throws {
        try self.init(main: path, side: IndexSchema.sidePath(of: path), finalPath: path)
    }

    /// Opens the main file at `mainPath` and the side file at `sidePath` (a build's `.part` files
    /// before they are renamed into place), read-only; `finalPath` is where the main file will be.
    init(main mainPath: String, side sidePath: String, finalPath: String) throws {
        let main = open(mainPath, O_RDONLY | O_CLOEXEC)
        guard main >= 0 else { throw IndexStorageError(code: errno, message: "cannot open \(mainPath)") }
        let side = open(sidePath, O_RDONLY | O_CLOEXEC)
        guard side >= 0 else {
            let code = errno
            close(main)
            throw IndexStorageError(code: code, message: "cannot open \(sidePath)")
        }
        self.main = main
        self.side = side
        if Self.procMounted {
            mainName = "/proc/self/fd/\(main)"
            sideName = "/proc/self/fd/\(side)"
        } else {
            mainName = finalPath
            sideName = IndexSchema.sidePath(of: finalPath)
        }
    }

    deinit {
        close(main)
        close(side)
    }
}
