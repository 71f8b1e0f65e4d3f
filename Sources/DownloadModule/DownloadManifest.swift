// `.oceq-manifest.json` in a download folder: which file holds which download (asset id, native /
// rendition / thumbnail, format), with the size and ETag it had when it was completed. A rerun
// finds its files by it, asks the server with `If-None-Match` and skips what is unchanged.
//
// Consistency: an entry is added only after its file was complete, flushed and renamed, and removed
// before a file is replaced or found missing, so the manifest never lists a file that is not whole.
// It is replaced atomically (a temporary file in the same folder, flushed, then renamed), so a crash
// or a full disk leaves the previous version, never a torn one. It never holds a URL or a token.
// At the end of a batch it usually goes with the last group of files (`DownloadBatch.companion`):
// its bytes flushed with theirs, renamed after their renames and that rename flushed with theirs;
// on a file system that commits metadata in order (ext4, XFS) a crash then shows it only with those
// renames, and where one did not, the next run finds a listed file missing and downloads it again.

import DeliveryKit
import FoundationEssentials
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a download folder holds, by download.
package struct DownloadManifest: Sendable, Equatable {
    /// The manifest's file name inside the folder.
    package static let fileName = ".oceq-manifest.json"

    /// One completed file.
    package struct Entry: Sendable, Equatable {
        /// The asset's id.
        package var assetId: String
        /// What was downloaded.
        package var kind: DownloadKind
        /// The file name inside the folder.
        package var file: String
        /// Its size in bytes.
        package var size: Int64
        /// The server's ETag for it, when it sent one.
        package var etag: String?

        /// An entry with every part given.
        package init(assetId: String, kind: DownloadKind, file: String, size: Int64, etag: String?) {
            self.assetId = assetId
            self.kind = kind
            self.file = file
            self.size = size
            self.etag = etag
        }

        /// The key of this download (asset and kind).
        package var key: String { assetId + "|" + kind.key }
    }

    /// The entries by key.
    package private(set) var entries: [String: Entry] = [:]
    /// The key of each file, by its name in lower case (one file, one entry).
    private var keysByFile: [String: String] = [:]

    /// An empty manifest.
    package init() {}

    /// The entry for `assetId`'s `kind`, if any.
    package func entry(assetId: String, kind: DownloadKind) -> Entry? { entries[assetId + "|" + kind.key] }

    /// Adds or replaces an entry (and drops any other entry that named the same file).
    package mutating func record(_ entry: Entry) {
        let key = entry.key
        let file = Self.fileKey(entry.file)
        if let other = keysByFile[file], other != key { entries[other] = nil }
        if let previous = entries.updateValue(entry, forKey: key) { keysByFile[Self.fileKey(previous.file)] = nil }
        keysByFile[file] = key
    }

    /// Forgets the entry for `key`.
    package mutating func remove(key: String) {
        if let previous = entries.removeValue(forKey: key) { keysByFile[Self.fileKey(previous.file)] = nil }
    }

    /// A file name as `keysByFile` holds it: in lower case (`quickLowercased`: recording a file
    /// cost 18 K instructions, most of them in `lowercased()`).
    private static func fileKey(_ name: String) -> String { name.quickLowercased }

    /// The manifest as JSON: `{"version": 1, "files": [...]}`, files sorted by name.
    package var json: JSON {
        let files = entries.values.sorted { $0.file < $1.file }.map { entry -> JSON in
            var object: [String: JSON] = [
                "assetId": .string(entry.assetId), "kind": .string(entry.kind.kindName), "file": .string(entry.file),
                "size": .int(Int(entry.size)),
            ]
            if let rendition = entry.kind.renditionName { object["rendition"] = .string(rendition) }
            if let format = entry.kind.format { object["format"] = .string(format) }
            if let etag = entry.etag { object["etag"] = .string(etag) }
            return .object(object)
        }
        return .object(["version": .int(1), "files": .array(files)])
    }

    /// The file's bytes: `JSONWriter(indent: 1)` of `json` and a line break, written straight from
    /// the entries, each member's name with its indent and punctuation appended as one run of bytes.
    /// The manifest is written with the last files, so what this costs delays the end of a download:
    /// building the JSON value of 500 entries and sorting each object's keys cost 12 M instructions,
    /// appending the names and punctuation a piece at a time 6.1 M, these runs 4.8 M (callgrind,
    /// 500 renditions; sorting the entries by name with `<` is a third of it, quoting the values
    /// another). `ManifestEncodingTests` pins it to the writer's output.
    package var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + entries.count * 200)
        out.append(contentsOf: Self.encodedHead)
        let files = entries.values.sorted { $0.file < $1.file }
        if files.isEmpty {
            out.append(contentsOf: "[]".utf8)
        } else {
            out.append(UInt8(ascii: "["))
            for (index, entry) in files.enumerated() {
                // Keys in the writer's (sorted) order.
                out.append(contentsOf: index == 0 ? Self.firstEntryOpen : Self.entryOpen)
                JSONWriter.appendQuoted(entry.assetId, into: &out)
                if let etag = entry.etag {
                    out.append(contentsOf: Self.etagMember)
                    JSONWriter.appendQuoted(etag, into: &out)
                }
                out.append(contentsOf: Self.fileMember)
                JSONWriter.appendQuoted(entry.file, into: &out)
                if let format = entry.kind.format {
                    out.append(contentsOf: Self.formatMember)
                    JSONWriter.appendQuoted(format, into: &out)
                }
                out.append(contentsOf: Self.kindMember)
                JSONWriter.appendQuoted(entry.kind.kindName, into: &out)
                if let rendition = entry.kind.renditionName {
                    out.append(contentsOf: Self.renditionMember)
                    JSONWriter.appendQuoted(rendition, into: &out)
                }
                out.append(contentsOf: Self.sizeMember)
                out.append(contentsOf: String(Int(entry.size)).utf8)
                out.append(contentsOf: Self.entryClose)
            }
            out.append(contentsOf: "\n ]".utf8)
        }
        out.append(contentsOf: Self.encodedTail)
        return out
    }

    // The runs of bytes `encoded` writes between the values (`JSONWriter(indent: 1)`'s layout).
    private static let encodedHead = Array("{\n \"files\": ".utf8)
    private static let firstEntryOpen = Array("\n  {\n   \"assetId\": ".utf8)
    private static let entryOpen = Array(",\n  {\n   \"assetId\": ".utf8)
    private static let etagMember = Array(",\n   \"etag\": ".utf8)
    private static let fileMember = Array(",\n   \"file\": ".utf8)
    private static let formatMember = Array(",\n   \"format\": ".utf8)
    private static let kindMember = Array(",\n   \"kind\": ".utf8)
    private static let renditionMember = Array(",\n   \"rendition\": ".utf8)
    private static let sizeMember = Array(",\n   \"size\": ".utf8)
    private static let entryClose = Array("\n  }".utf8)
    private static let encodedTail = Array(",\n \"version\": 1\n}\n".utf8)

    /// A manifest from its JSON; entries that do not parse are dropped.
    package init(json: JSON) throws(ManifestError) {
        guard json["version"]?.intValue == 1, let files = json["files"]?.arrayValue else {
            throw ManifestError(reason: "not an oceq download manifest (version 1)")
        }
        for file in files {
            guard let assetId = file["assetId"]?.stringValue, let name = file["file"]?.stringValue,
                let size = file["size"]?.intValue, let kindName = file["kind"]?.stringValue,
                let kind = DownloadKind(
                    kindName: kindName, rendition: file["rendition"]?.stringValue, format: file["format"]?.stringValue),
                SafeFileName.sanitize(name) == name
            else { continue }
            record(Entry(assetId: assetId, kind: kind, file: name, size: Int64(size), etag: file["etag"]?.stringValue))
        }
    }

    /// The manifest of `folder`: empty when there is none; an unreadable one is an error. The
    /// entries of its journal (files a run named and did not live to record) are added when their
    /// files are there as recorded (`mergeJournal`).
    package static func load(folder: String) throws(ManifestError) -> DownloadManifest {
        var manifest = try loadFile(folder: folder)
        manifest.mergeJournal(folder: folder)
        return manifest
    }

    /// The journal's file name: beside the manifest, lines appended before files are named.
    package static let journalName = fileName + ".journal"

    /// The journal's path in `folder`.
    package static func journalPath(folder: String) -> String { folder + "/" + journalName }

    /// What the journal gets for `entries`: a manifest of them (`encoded`), one document after another
    /// in the journal, each ending with the line `}` (no line of an entry is that: its strings are
    /// quoted, and its objects are indented).
    package static func journalLines(_ entries: [Entry]) -> [UInt8] {
        var group = DownloadManifest()
        for entry in entries { group.record(entry) }
        return group.encoded
    }

    /// Where each document of a journal ends: the `}` line that closes it.
    private static let journalDocumentEnd = Array("\n}\n".utf8)

    /// Removes the journal (its entries are in the manifest on the disk).
    package static func removeJournal(folder: String) {
        FileSystem.remove(journalPath(folder: folder))
    }

    /// Adds the journal's entries whose file is in `folder` with the size recorded: a run named it
    /// and was ended (killed, crashed) before its manifest listed it. A group that does not parse, an
    /// entry whose file is missing or of another size, and a journal that is a link are ignored.
    mutating func mergeJournal(folder: String) {
        guard let bytes = try? ContainedDirectory(root: folder).read(DownloadManifest.journalName, limit: 64 << 20)
        else { return }
        var start = bytes.startIndex
        while start < bytes.endIndex {
            // A document that a crash cut short has no end: it and what follows are ignored.
            guard let end = bytes[start...].firstRange(of: DownloadManifest.journalDocumentEnd)?.upperBound else {
                return
            }
            let document = Array(bytes[start..<end])
            start = end
            guard let json = try? JSON.parse(document), let group = try? DownloadManifest(json: json) else { continue }
            for entry in group.entries.values where DownloadFolder.size(of: folder + "/" + entry.file) == entry.size {
                record(entry)
            }
        }
    }

    /// The manifest file of `folder` alone.
    private static func loadFile(folder: String) throws(ManifestError) -> DownloadManifest {
        let path = folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return DownloadManifest() }
        // Read without following a link: a manifest linked to a file elsewhere is refused.
        let data: [UInt8]
        do {
            data = try ContainedDirectory(root: folder).read(fileName, limit: 64 << 20)
        } catch {
            throw ManifestError(reason: "cannot read \(path): \(error.reason)")
        }
        let json: JSON
        do {
            json = try JSON.parse(data)
        } catch {
            throw ManifestError(reason: "\(path) is not JSON: \(error)")
        }
        return try DownloadManifest(json: json)
    }

    /// The manifest's path in `folder`.
    package static func path(folder: String) -> String { folder + "/" + fileName }

    /// Where a new version is written before it is renamed over `path(folder:)`.
    package static func temporaryPath(folder: String) -> String { path(folder: folder) + ".tmp-\(getpid())" }

    /// Writes the manifest into `folder` atomically: temporary file, flush, rename, folder flush.
    package func save(folder: String) throws(ManifestError) {
        let path = DownloadManifest.path(folder: folder)
        let temporary = DownloadManifest.temporaryPath(folder: folder)
        let bytes = encoded
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw ManifestError(reason: "cannot write \(path): \(String(cString: strerror(errno)))") }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw ManifestError(reason: "cannot write \(path): \(String(cString: strerror(failure)))")
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}

/// A manifest that could not be read or written.
package struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    package var reason: String
    package var description: String { reason }
}
