// The first half of opening a channel's index, taken as soon as the loader knows the fingerprint
// and the items' order (before it has finished the items): under the cache folder's lock, either
// the cached pair that holds exactly these items, or a build begun into `.part` files whose side
// writer stores each batch of items the loader finishes (`finished`), on the core the loader's
// sequential steps leave idle (`IndexBuild`). `ChannelIndex.init(pending:…)` completes it.
//
// Files: `cacheDirectory/index-<fingerprint>.sqlite` and its side file; a build writes both as
// `<name>.<pid>-<random>.part` and renames them when complete (the side file first), so a crash
// never leaves a half-built index under the final name. Without a cache directory the index is a
// temporary file, removed when the index is released. An abandoned build (the load failed) removes
// its `.part` files.

import FoundationEssentials
import Glibc
import OCEQCore

final class PendingIndex {
    /// The index file (main file of the pair).
    let path: String
    /// Whether the index is a temporary file.
    let temporary: Bool
    /// Encodes the stored items.
    let codec: ItemCodec
    /// The cached pair holding these items and a connection to it; nil: being built.
    let reused: (files: IndexFiles, connection: SQLiteConnection)?
    /// Held from the check until the pair is built and renamed and a connection is open (`IndexLock`).
    private var lock: IndexLock?
    private let build: IndexBuild?
    private let partPaths: (main: String, side: String)

    /// Checks the cache for `items` (in their final order; their contents may not be final yet) or
    /// begins building.
    init(fingerprint: String, items: [ExportItem], cacheDirectory: String?, codec: ItemCodec) throws {
        self.codec = codec
        var reused: (files: IndexFiles, connection: SQLiteConnection)?
        if let cacheDirectory {
            try FileSystem.makeDirectories(cacheDirectory)  // mode 0755 whatever the umask is at the moment
            path = PathText.joined(
                cacheDirectory,
                "index-\(ChannelIndex.fileName(fingerprint)).sqlite")
            temporary = false
            // A second process building the same index waits, then reuses this one.
            lock = try IndexLock(index: path, exclusive: true)
            ChannelIndex.removeStaleParts(of: path)
            if FileManager.default.fileExists(atPath: path) {
                reused = try? ChannelIndex.openCached(path: path, items: items, fingerprint: fingerprint)
                if reused == nil { ChannelIndex.remove(path) }
            }
        } else {
            path = PathText.joined(XDGPaths.temporaryFolder(), "oceq-index-\(UUID().uuidString).sqlite")
            temporary = true
        }
        self.reused = reused
        let suffix = ".\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).part"
        partPaths = (path + suffix, IndexSchema.sidePath(of: path) + suffix)
        build = reused == nil ? IndexBuild(side: partPaths.side, buildID: UUID().uuidString, codec: codec) : nil
    }

    deinit { abandon() }

    /// Where the loader gives the final items, in order, a batch at a time; nil when the cached
    /// index is reused.
    var finished: ((ArraySlice<ExportItem>) -> Void)? {
        guard let build else { return nil }
        return { build.store($0) }
    }

    /// Completes the build for `builder` (every item given to `finished`), renames the pair into
    /// place and gives the files this build wrote (even if another process renames its own over
    /// them later).
    func finishBuild(_ builder: IndexBuilder) throws -> IndexFiles {
        guard let build else { preconditionFailure("the cached index is reused") }
        let side = IndexSchema.sidePath(of: path)
        do {
            try build.finish(builder, at: partPaths.main)
            let files = try IndexFiles(main: partPaths.main, side: partPaths.side, finalPath: path)
            for (from, to) in [(partPaths.side, side), (partPaths.main, path)] where rename(from, to) != 0 {
                throw IndexStorageError(code: errno, message: "cannot rename \(from) to \(to)")
            }
            return files
        } catch {
            removeParts()
            throw error
        }
    }

    /// Releases the cache folder's lock.
    func unlock() { lock = nil }

    /// Stops a build that will not be finished (the load failed) and removes its files; nothing
    /// once it is finished.
    func abandon() {
        guard let build, build.abandon() else { return }
        removeParts()
    }

    private func removeParts() {
        try? FileManager.default.removeItem(atPath: partPaths.main)
        try? FileManager.default.removeItem(atPath: partPaths.side)
    }
}
