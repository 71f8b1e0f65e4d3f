// The folder a mirror writes: DIR/contentexport/... (the content folder), DIR/META-INF/ and
// DIR/channel.json (the channel's name only, never its token). Every path is built here from
// components checked by `SafeName`, so nothing lands outside DIR. Files are written to a
// temporary name beside the target and renamed, and left alone when their bytes are unchanged.

import FoundationEssentials
import Glibc
import OCEQCore

/// Paths and file writes under the mirror folder.
struct MirrorTarget {
    /// DIR, absolute.
    let root: String

    /// The content folder's name (what `cec download-content` uses).
    static let contentFolderName = "contentexport"

    init(_ path: String, relativeTo directory: String) {
        root = XDGPaths.resolve(path, in: directory)
    }

    var content: String { root + "/" + Self.contentFolderName }

    /// The item file of `id` in type folder `type` (both checked by the caller).
    func itemFile(type: String, id: String) -> String { content + "/ContentItems/" + type + "/" + id + ".json" }

    /// The folder of an asset's native file.
    func filesFolder(type: String, id: String) -> String { content + "/ContentItems/" + type + "/files/" + id }

    /// The file of the taxonomy `id` (checked by the caller).
    func taxonomyFile(id: String) -> String { content + "/Taxonomies/" + id + ".json" }

    /// The entries a mirror writes at the top of DIR; any other entry means DIR is not a mirror.
    static let ownEntries: Set<String> = [contentFolderName, "META-INF", "channel.json"]

    /// What the manifest of a mirror says made it.
    static let manifestCreator = "Created-by: oceq mirror"

    /// Creates DIR and the export's folders and proves DIR writable, before anything is fetched.
    /// An export that oceq did not write (its manifest names another creator) is never written
    /// over: a mirror into the folder of the export being served would replace its files. A tree
    /// holding a symbolic link anywhere is refused: nothing is written, renamed or removed through one.
    func prepare() throws(MirrorError) {
        let manifest = try? directory().read("META-INF/MANIFEST.MF", limit: 1 << 20)
        if let manifest, !String(decoding: manifest, as: UTF8.self).contains(Self.manifestCreator) {
            throw .target("\(root) holds an export that oceq mirror did not write; choose another folder")
        }
        // Like `git clone`: a folder holding anything but a mirror's own entries is not written
        // into (a mirror into `~` or a project folder would scatter channel.json and META-INF there).
        if let entries = try? directory().list() {
            let foreign = entries.map(\.name).filter { !Self.ownEntries.contains($0) }.sorted()
            if let first = foreign.first {
                let more = foreign.count > 1 ? " and \(foreign.count - 1) more" : ""
                throw .target(
                    "\(root) is not empty and holds no mirror (it has \(first.debugDescription)\(more)); "
                        + "choose a new or empty folder")
            }
        }
        let folder: ContainedDirectory
        do throws(FileSystemError) {
            folder = try ContainedDirectory(root: root, create: true)
            if let link = folder.links(limit: 1).first {
                throw ContainedDirectory.linkRefusal(folder.display(link))
            }
            for relative in [
                Self.contentFolderName, Self.contentFolderName + "/ContentTypes",
                Self.contentFolderName + "/ContentItems", Self.contentFolderName + "/LocalizationPolicies",
                "META-INF", "META-INF/TMP",
            ] {
                guard folder.kind(relative) != .regular else {
                    throw FileSystemError(path: path(relative), reason: "exists and is not a folder")
                }
                _ = try folder.folder(relative, create: true)
            }
        } catch {
            throw .target(Self.refusal(error))
        }
        let probe = Self.contentFolderName + "/.oceq-mirror-probe-\(getpid())"
        do {
            try folder.write(Array("x".utf8), to: probe)
        } catch {
            throw .target("cannot write in \(content): \(error.reason)")
        }
        folder.remove(probe)
    }

    /// The message for a file-system failure under DIR (a link found on the way says so).
    static func refusal(_ error: FileSystemError) -> String {
        if error.code == 0 { return "\(error.path) \(error.reason)" }
        if error.code == ENOTDIR && FileSystem.kind(error.path) == .regular {
            return "\(error.path) exists and is not a folder"
        }
        return "cannot create \(error.path): \(error.reason)"
    }

    /// DIR, held open: every write below goes through it without following links.
    func directory() throws(FileSystemError) -> ContainedDirectory {
        try ContainedDirectory(root: root)
    }

    /// `path` (DIR or a path under it) relative to DIR.
    func relative(_ path: String) -> String {
        path == root ? "" : String(path.dropFirst(root.count + 1))
    }

    /// The absolute path of `relative` under DIR.
    func path(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }

    /// The bytes of a file under DIR (`path` absolute), never read through a link; nil when missing.
    func read(_ path: String) -> [UInt8]? {
        try? directory().read(relative(path))
    }

    /// Writes `bytes` to `path` unless the file holds exactly them; true when it wrote. The file
    /// and its folders are reached without following links (a link on the way is an error).
    @discardableResult
    func write(_ bytes: [UInt8], to path: String) throws(MirrorError) -> Bool {
        do {
            let folder = try directory()
            let relative = self.relative(path)
            if let existing = try? folder.read(relative), existing == bytes { return false }
            try folder.write(bytes, to: relative)
        } catch {
            throw .file(
                error.code == 0
                    ? "cannot write \(path): \(error.path) \(error.reason)" : "cannot write \(path): \(error.reason)")
        }
        return true
    }

    /// The names of the regular files in the folder `path` (absolute, under DIR), none when it
    /// cannot be listed; links are not followed and not listed.
    func files(in path: String) -> [String] {
        guard let folder = try? directory().folder(relative(path)), let entries = try? folder.list() else { return [] }
        return entries.filter { $0.kind == .regular }.map(\.name)
    }

    /// The item files on disk, as (type folder, id) pairs, in export order.
    func itemFiles() -> [(type: String, id: String)] {
        var out: [(String, String)] = []
        forEachItemFile { out.append(($0, $1)) }
        return out
    }

    /// Calls `body` with each item file's type folder and id, in export order, listing one type
    /// folder at a time (a list of every item of a 100k-item mirror was about 10 MB).
    func forEachItemFile<Failure: Error>(
        _ body: (_ type: String, _ id: String) throws(Failure) -> Void
    ) throws(Failure) {
        guard let items = try? directory().folder(Self.contentFolderName + "/ContentItems") else { return }
        let folders = (try? items.list()) ?? []
        for folder in folders.map(\.name).sorted() where folder != "VariationSets" && SafeName.isValidTypeName(folder) {
            guard items.kind(folder) == .directory, let typeFolder = try? items.folder(folder) else { continue }
            let files = ((try? typeFolder.list()) ?? []).filter { $0.kind == .regular }.map(\.name)
            for file in files.sorted() where file.hasSuffix(".json") {
                let id = String(file.dropLast(5))
                if SafeName.isValidID(id) { try body(folder, id) }
            }
        }
    }

    /// Removes the item files (with their native files and variation sets) that are not in
    /// `keep` (type folder and id pairs): what a full mirror no longer found on the channel.
    /// Returns how many items were removed.
    func removeItems(except keep: Set<String>) -> Int {
        guard let folder = try? directory() else { return 0 }
        var removed = 0
        for (type, id) in itemFiles() where !keep.contains(type + "/" + id) {
            guard folder.remove(relative(itemFile(type: type, id: id))) else { continue }
            removed += 1
            folder.removeTree(relative(filesFolder(type: type, id: id)))
        }
        let ids = Set(keep.map { $0.split(separator: "/").last.map(String.init) ?? "" })
        let sets = content + "/ContentItems/VariationSets"
        for file in files(in: sets) where file.hasSuffix(".json") {
            let id = String(file.dropLast(5))
            if SafeName.isValidID(id) && !ids.contains(id) { folder.remove(relative(sets + "/" + file)) }
        }
        return removed
    }

    /// Removes the taxonomy files whose names are not in `keep` (`<id>.json`): the taxonomies a full
    /// mirror no longer found on the channel. Returns how many were removed.
    func removeTaxonomies(except keep: Set<String>) -> Int {
        guard let folder = try? directory() else { return 0 }
        let taxonomies = content + "/Taxonomies"
        var removed = 0
        for file in files(in: taxonomies) where file.hasSuffix(".json") && !keep.contains(file) {
            guard SafeName.isValidID(String(file.dropLast(5))) else { continue }
            if folder.remove(relative(taxonomies + "/" + file)) { removed += 1 }
        }
        return removed
    }

    static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return String(describing: error)
    }
}

/// Why a mirror could not go on.
enum MirrorError: Error, CustomStringConvertible {
    /// DIR cannot be created or written.
    case target(String)
    /// A file of the export could not be written.
    case file(String)

    var description: String {
        switch self {
        case .target(let message), .file(let message): return message
        }
    }
}
