// Cheap stamps of an export on disk, so a restart finds its cached index without reading (and
// hashing) every item file.
//
// Two stamps, each hashing every file and folder under each content folder (links followed inside
// it, as the loader does) by its path relative to the content folder, plus the content folders'
// absolute paths and the load options that change what is read; entries are hashed one by one and
// summed, so folders are walked on all cores in any order:
// - `listing`: the item files (`*.json` directly in a `ContentItems/<folder>/`) by name, inode
//   and type as the folder listing gives them (no stat: a million files list in a fraction of a
//   second); every other file and every folder also by size, mtime and ctime. A restart whose
//   listing stamp matches reopens the index.
// - `full`: every entry by inode, size, mtime and ctime (one stat each: about 3 s for a million
//   files here). Taken before a build reads the files, stored with the index, and checked again
//   right after a restart has started serving (`ExportCheck`): a difference is reported and the
//   next start reads the export again.
//
// Staleness rule (like git's index stat check): an export whose files all keep their size, mtime,
// ctime and inode is taken as unchanged. Any write to a file changes its mtime and ctime; `cp -p`
// or `touch -r` can restore an mtime but not the ctime nor (for a new copy) the inode; a rename or
// an added or removed file changes the listing. An item file rewritten in place (same inode) is
// seen by the check after the start, not before it. A stamp is taken before the files are read,
// so a file changed while loading gives a different stamp at the next start. Not caught: a file
// rewritten in place with the same size within the file system's timestamp granularity, or a
// clock set back; a fresh `--cache-dir` forces a rebuild.

import Dispatch
import Glibc
import OCEQCore

enum ExportStamp {
    /// Deepest folder nesting walked (links may form loops).
    static let maximumDepth = 12

    /// How much of each file a stamp covers.
    enum Depth: Sendable {
        /// Item files by name and inode only (no stat); everything else fully.
        case listing
        /// Every entry by inode, size, mtime and ctime.
        case full
    }

    /// The stamp of `roots` (hex), or nil when a content folder cannot be listed.
    static func compute(roots: [String], salt: [String], depth: Depth) -> String? {
        var hasher = ContentHasher()
        hasher.combine(depth == .full ? "oceq-export-stamp-full-1" : "oceq-export-stamp-listing-1")
        for value in salt { hasher.combine(value) }
        for (number, root) in roots.enumerated() {
            hasher.combine(number)
            hasher.combine(root)
            guard let sum = walk(root: root, depth: depth) else { return nil }
            hasher.combine(sum.count)
            hasher.combine(sum.digest)
        }
        return hasher.finalize().hex
    }

    /// The order-independent sum of every entry's digest under `root`, level by level.
    private static func walk(root: String, depth stampDepth: Depth) -> (count: Int, digest: ContentDigest)? {
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
                if !stampFolder(root: root, relative: folders[index], depth: stampDepth, into: &sum, folders: &below) {
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
    /// listed. The names are read first (one buffer), then stated on all cores.
    private static func stampFolder(
        root: String, relative: String, depth: Depth, into sum: inout Sum, folders: inout [String]
    ) -> Bool {
        let path = relative.isEmpty ? root : root + "/" + relative
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        // Names, NUL-terminated, one after another; `starts` are their offsets.
        var names: [CChar] = []
        var starts: [Int] = []
        // In an item folder (`ContentItems/<folder>`) a listing stamp takes `*.json` as listed.
        let parts = relative.split(separator: "/")
        let itemFolder = depth == .listing && parts.count == 2 && parts[0] == "ContentItems"
        var listed = Sum()
        let itemPrefix = relative + "/"
        while let entry = readdir(dir) {
            if itemFolder, entry.pointee.d_type == UInt8(DT_REG), let digest = listedItem(entry, prefix: itemPrefix) {
                listed.add(digest)
                continue
            }
            withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { name in
                    let length = strlen(name)
                    if (length == 1 && name[0] == 0x2E) || (length == 2 && name[0] == 0x2E && name[1] == 0x2E) {
                        return
                    }
                    starts.append(names.count)
                    names.append(contentsOf: UnsafeBufferPointer(start: name, count: length + 1))
                }
            }
        }
        let prefix = relative.isEmpty ? "" : relative + "/"
        let chunk = 4096
        let chunks = (starts.count + chunk - 1) / chunk
        let results = Locked<(Sum, [String])>((Sum(), []))
        let allNames = names
        let offsets = starts
        DispatchQueue.concurrentPerform(iterations: chunks) { chunkIndex in
            var local = Sum()
            var below: [String] = []
            allNames.withUnsafeBufferPointer { buffer in
                for index in chunkIndex * chunk..<min(offsets.count, (chunkIndex + 1) * chunk) {
                    let name = buffer.baseAddress! + offsets[index]
                    if let digest = stampEntry(fd: fd, folder: path, prefix: prefix, name: name, below: &below) {
                        local.add(digest)
                    }
                }
            }
            results.withLock {
                $0.0.add(local)
                $0.1 += below
            }
        }
        let (found, below) = results.withLock { $0 }
        sum.add(found)
        sum.add(listed)
        folders += below
        return true
    }

    /// The digest of an item file as listed (`prefix` is its folder's relative path and `/`; then
    /// its name and inode), or nil when it is not one.
    private static func listedItem(_ entry: UnsafeMutablePointer<dirent>, prefix: String) -> ContentDigest? {
        withUnsafePointer(to: &entry.pointee.d_name) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { name -> ContentDigest? in
                let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
                guard length > 5, name[length - 5] == 0x2E, name[length - 4] == 0x6A, name[length - 3] == 0x73,
                    name[length - 2] == 0x6F, name[length - 1] == 0x6E
                else { return nil }
                var hasher = ContentHasher()
                hasher.combine(prefix)
                hasher.combine(bytes: UnsafeRawBufferPointer(start: name, count: length))
                hasher.combine(Int(entry.pointee.d_ino))
                return hasher.finalize()
            }
        }
    }

    /// The digest of one entry (its relative path and status), or nil when it vanished.
    private static func stampEntry(
        fd: Int32, folder: String, prefix: String, name: UnsafePointer<CChar>, below: inout [String]
    ) -> ContentDigest? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        var hasher = ContentHasher()
        hasher.combine(prefix)
        hasher.combine(bytes: UnsafeRawBufferPointer(start: name, count: strlen(name)))
        combine(info, into: &hasher)
        var isFolder = info.st_mode & S_IFMT == S_IFDIR
        if info.st_mode & S_IFMT == S_IFLNK {
            // What the link points at, and where it resolves (inside the export or not).
            let linkPath = folder + "/" + String(cString: name)
            var target = stat()
            if stat(linkPath, &target) == 0 {
                combine(target, into: &hasher)
                isFolder = target.st_mode & S_IFMT == S_IFDIR
            }
            hasher.combine(FileSystem.realPath(linkPath) ?? "")
        }
        if isFolder { below.append(prefix + String(cString: name)) }
        return hasher.finalize()
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
