// The folder a mirror writes: DIR/contentexport/... (the content folder), DIR/META-INF/ and
// DIR/channel.json (the channel's name only, never its token). Every path is built here from
// components checked by `SafeName`, so nothing lands outside DIR. Files are written to a
// temporary name beside the target and renamed, and left alone when their bytes are unchanged.

import Foundation

/// Paths and file writes under the mirror folder.
struct MirrorTarget {
    /// DIR, absolute.
    let root: String

    /// The content folder's name (what `cec download-content` uses).
    static let contentFolderName = "contentexport"

    init(_ path: String, relativeTo directory: String) {
        var expanded = path
        if expanded == "~" || expanded.hasPrefix("~/") {
            expanded = NSHomeDirectory() + expanded.dropFirst()
        }
        let absolute = expanded.hasPrefix("/") ? expanded : directory + "/" + expanded
        root = (absolute as NSString).standardizingPath
    }

    var content: String { root + "/" + Self.contentFolderName }

    /// The item file of `id` in type folder `type` (both checked by the caller).
    func itemFile(type: String, id: String) -> String { content + "/ContentItems/" + type + "/" + id + ".json" }

    /// The folder of an asset's native file.
    func filesFolder(type: String, id: String) -> String { content + "/ContentItems/" + type + "/files/" + id }

    /// The entries a mirror writes at the top of DIR; any other entry means DIR is not a mirror.
    static let ownEntries: Set<String> = [contentFolderName, "META-INF", "channel.json"]

    /// What the manifest of a mirror says made it.
    static let manifestCreator = "Created-by: oceq mirror"

    /// Creates DIR and the export's folders and proves DIR writable, before anything is fetched.
    /// An export that oceq did not write (its manifest names another creator) is never written
    /// over: a mirror into the folder of the export being served would replace its files.
    func prepare() throws(MirrorError) {
        if let manifest = FileManager.default.contents(atPath: root + "/META-INF/MANIFEST.MF"),
            !String(decoding: manifest, as: UTF8.self).contains(Self.manifestCreator)
        {
            throw .target("\(root) holds an export that oceq mirror did not write; choose another folder")
        }
        // Like `git clone`: a folder holding anything but a mirror's own entries is not written
        // into (a mirror into `~` or a project folder would scatter channel.json and META-INF there).
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: root) {
            let foreign = entries.filter { !Self.ownEntries.contains($0) }.sorted()
            if let first = foreign.first {
                let more = foreign.count > 1 ? " and \(foreign.count - 1) more" : ""
                throw .target(
                    "\(root) is not empty and holds no mirror (it has \(first.debugDescription)\(more)); "
                        + "choose a new or empty folder")
            }
        }
        for folder in [
            root, content, content + "/ContentTypes", content + "/ContentItems", content + "/LocalizationPolicies",
            root + "/META-INF", root + "/META-INF/TMP",
        ] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw .target("\(folder) exists and is not a folder") }
                continue
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw .target("cannot create \(folder): \(Self.reason(error))")
            }
        }
        let probe = content + "/.oceq-mirror-probe-\(getpid())"
        guard FileManager.default.createFile(atPath: probe, contents: Data("x".utf8)) else {
            throw .target("cannot write in \(content): \(String(cString: strerror(errno)))")
        }
        try? FileManager.default.removeItem(atPath: probe)
    }

    /// Writes `bytes` to `path` unless the file holds exactly them; true when it wrote.
    @discardableResult
    func write(_ bytes: [UInt8], to path: String) throws(MirrorError) -> Bool {
        if let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(bytes) { return false }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .file("cannot write \(path): \(Self.reason(error))")
        }
        return true
    }

    /// The item files on disk, as (type folder, id) pairs, in export order.
    func itemFiles() -> [(type: String, id: String)] {
        let items = content + "/ContentItems"
        var out: [(String, String)] = []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: items)) ?? []
        for folder in folders.sorted() where folder != "VariationSets" && SafeName.isValidTypeName(folder) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: items + "/" + folder)) ?? []
            for file in files.sorted() where file.hasSuffix(".json") {
                let id = String(file.dropLast(5))
                if SafeName.isValidID(id) { out.append((folder, id)) }
            }
        }
        return out
    }

    /// Removes the item files (with their native files and variation sets) that are not in
    /// `keep` (type folder and id pairs): what a full mirror no longer found on the channel.
    /// Returns how many items were removed.
    func removeItems(except keep: Set<String>) -> Int {
        var removed = 0
        let manager = FileManager.default
        for (type, id) in itemFiles() where !keep.contains(type + "/" + id) {
            guard (try? manager.removeItem(atPath: itemFile(type: type, id: id))) != nil else { continue }
            removed += 1
            try? manager.removeItem(atPath: filesFolder(type: type, id: id))
        }
        let ids = Set(keep.map { $0.split(separator: "/").last.map(String.init) ?? "" })
        let sets = content + "/ContentItems/VariationSets"
        for file in (try? manager.contentsOfDirectory(atPath: sets)) ?? [] where file.hasSuffix(".json") {
            let id = String(file.dropLast(5))
            if SafeName.isValidID(id) && !ids.contains(id) { try? manager.removeItem(atPath: sets + "/" + file) }
        }
        return removed
    }

    static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return error.localizedDescription
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
