// A cheap stamp of an export on disk, so a restart finds its cached index without reading (and
// hashing) every item file.
//
// The stamp hashes, for every file and folder under each content folder (links followed inside
// it, as the loader does): its path relative to the content folder, size, mtime, ctime and inode
// number, plus the content folders' absolute paths and the load options that change what is read.
// Entries are hashed one by one and summed, so the folders are walked on all cores in any order.
//
// Staleness rule (like git's index stat check): an export whose files all keep their size, mtime,
// ctime and inode is taken as unchanged. Any write to a file changes its mtime and ctime; `cp -p`
// or `touch -r` can restore an mtime but not the ctime nor (for a new copy) the inode; a rename or
// added/removed file changes the listing. The stamp is taken before the files are read, so a file
// changed while loading gives a different stamp at the next start (a rebuild, never stale data).
// Not caught: a file rewritten in place with the same size within the file system's timestamp
// granularity, or a clock set back; `oceq serve --cache-dir` on a fresh folder forces a rebuild.

import Dispatch
import Glibc
import OCEQCore

enum ExportStamp {
    /// Deepest folder nesting walked (links may form loops).
    static let maximumDepth = 12

    /// The stamp of `roots` (hex), or nil when a content folder cannot be listed.
    static func compute(roots: [String], salt: [String]) -> String? {
        var hasher = ContentHasher()
        hasher.combine("oceq-export-stamp-1")
        for value in salt { hasher.combine(value) }
        for (number, root) in roots.enumerated() {
            hasher.combine(number)
            hasher.combine(root)
            guard let sum = walk(root: root) else { return nil }
            hasher.combine(sum.count)
            hasher.combine(sum.digest)
        }
        return hasher.finalize().hex
    }

    /// The order-independent sum of every entry's digest under `root`, level by level.
    private static func walk(root: String) -> (count: Int, digest: ContentDigest)? {
        let total = Locked(Sum())
        let failed = Locked(false)
        var level = [""]
        var depth = 0
        while !level.isEmpty && depth <= maximumDepth {
            let folders = level
            let next = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: folders.count) { index in
                var sum = Sum()
                var below: [String] = []
                if !stampFolder(root: root, relative: folders[index], into: &sum, folders: &below) {
                    failed.withLock { $0 = true }
                }
                total.withLock { $0.add(sum) }
                if !below.isEmpty { next.withLock { $0 += below } }
            }
            if failed.withLock({ $0 }) { return nil }
            level = next.withLock { $0 }
            depth += 1
        }
        let sum = total.withLock { $0 }
        return (sum.count, ContentDigest(low: sum.low, high: sum.high))
    }

    /// A running sum of entry digests.
    private struct Sum {
        var count = 0
        var low: UInt64 = 0
        var high: UInt64 = 0

        mutating func add(_ digest: ContentDigest) {
            count += 1
            low = low &+ digest.low
            high = high &+ digest.high
        }

        mutating func add(_ other: Sum) {
            count += other.count
            low = low &+ other.low
            high = high &+ other.high
        }
    }

    /// Adds every entry of `root/relative`; sub-folders go to `folders`. False when it cannot be
    /// listed.
    private static func stampFolder(
        root: String, relative: String, into sum: inout Sum, folders: inout [String]
    ) -> Bool {
        let path = relative.isEmpty ? root : root + "/" + relative
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            var hasher = ContentHasher()
            let entryPath = relative.isEmpty ? name : relative + "/" + name
            hasher.combine(entryPath)
            combine(info, into: &hasher)
            var isFolder = info.st_mode & S_IFMT == S_IFDIR
            if info.st_mode & S_IFMT == S_IFLNK {
                // What the link points at, and whether it still stays inside the export.
                var target = stat()
                if stat(path + "/" + name, &target) == 0 {
                    combine(target, into: &hasher)
                    isFolder = target.st_mode & S_IFMT == S_IFDIR
                }
                hasher.combine(FileSystem.realPath(path + "/" + name) ?? "")
            }
            sum.add(hasher.finalize())
            if isFolder { folders.append(entryPath) }
        }
        return true
    }

    private static func combine(_ info: stat, into hasher: inout ContentHasher) {
        hasher.combine(Int(info.st_mode))
        hasher.combine(Int(info.st_size))
        hasher.combine(Int(info.st_ino))
        hasher.combine(Int(info.st_dev))
        hasher.combine(Int(info.st_mtim.tv_sec))
        hasher.combine(Int(info.st_mtim.tv_nsec))
        hasher.combine(Int(info.st_ctim.tv_sec))
        hasher.combine(Int(info.st_ctim.tv_nsec))
    }
}
