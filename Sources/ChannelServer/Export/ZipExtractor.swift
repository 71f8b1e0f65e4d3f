// Extracts export zips into the cache with libarchive.
//
// Design: each zip gets `<cache>/<key>/`, where the key hashes the zip's real path, size and
// modification time, so a second start reuses the extraction and a changed zip gets a new one.
// Entries are written into a private `.partial-…` folder that is renamed into place only after the
// last entry and a completion marker (which also records the entries that were skipped) are
// written; a crash or a corrupt zip never leaves a half folder behind under the final name.
//
// Safety: every entry name is normalised first (`\` read as `/`, empty and `.` components dropped);
// an absolute name, a drive letter or any `..` component makes the entry skipped with an issue, so
// every path written lies inside the partial folder. Only directories and regular files are
// written (symbolic links, hard links and devices are skipped). libarchive's disk writer runs with
// ARCHIVE_EXTRACT_SECURE_NODOTDOT and ARCHIVE_EXTRACT_SECURE_SYMLINKS as a second line. It is
// handed absolute target paths, because the only alternative is `chdir`, which is process-wide;
// ARCHIVE_EXTRACT_SECURE_NOABSOLUTEPATHS would refuse those, so its check (no absolute entry
// names) is done here on the entry's own name instead.
//
// Limits (`ZipLimits`): entries are counted, and each entry's data is copied block by block
// (not with `archive_read_extract2`), counting the expanded bytes against the total and against
// the compressed bytes read so far (the ratio), so a bomb is refused after at most one block past
// a limit, and the partial folder is removed.

import CArchive
import Glibc
import OCEQCore

struct ZipExtractor {
    /// The folder holding the extractions.
    var cacheDirectory: String
    /// What a zip may expand to.
    var limits = ZipLimits()

    static let markerName = ".oceq-complete"

    /// True when the file starts like a zip (local header, empty archive or spanned marker).
    static func looksLikeZip(_ path: String) -> Bool {
        guard let head = FileSystem.read(path, offset: 0, count: 4), head.count == 4 else { return false }
        return head[0] == 0x50 && head[1] == 0x4B
            && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6) || (head[2] == 7 && head[3] == 8))
    }

    /// True when the end-of-central-directory record is present. libarchive falls back to reading
    /// a zip front to back when it is missing, which would accept a zip cut inside its directory.
    static func hasEndOfCentralDirectory(_ path: String) -> Bool {
        endOfCentralDirectory(path).found
    }

    /// Whether the end-of-central-directory record is present, and the number of entries it
    /// declares (nil when it defers to a zip64 record: 0xFFFF).
    static func endOfCentralDirectory(_ path: String) -> (found: Bool, entries: Int?) {
        guard let size = FileSystem.fileSize(path), size >= 22 else { return (false, nil) }
        // The record is 22 bytes plus a comment of at most 65 535 bytes, at the very end.
        let window = min(size, 22 + 65_535)
        guard let tail = FileSystem.read(path, offset: size - window, count: window), tail.count == window else {
            return (false, nil)
        }
        var index = tail.count - 22
        while index >= 0 {
            if tail[index] == 0x50, tail[index + 1] == 0x4B, tail[index + 2] == 5, tail[index + 3] == 6 {
                let commentLength = Int(tail[index + 20]) | Int(tail[index + 21]) << 8
                if index + 22 + commentLength <= tail.count {
                    let entries = Int(tail[index + 10]) | Int(tail[index + 11]) << 8
                    if entries != 0xFFFF { return (true, entries) }
                    return (true, zip64EntryCount(path, tail: tail, endRecord: index))
                }
            }
            index -= 1
        }
        return (false, nil)
    }

    /// The entry count of a zip64 end record, found through the locator just before the classic
    /// end record at `endRecord` in `tail`; nil when there is none.
    static func zip64EntryCount(_ path: String, tail: [UInt8], endRecord: Int) -> Int? {
        func number(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        let locator = endRecord - 20
        guard locator >= 0, tail[locator] == 0x50, tail[locator + 1] == 0x4B, tail[locator + 2] == 6,
            tail[locator + 3] == 7
        else { return nil }
        let offset = number(tail, locator + 8, 8)
        guard offset >= 0, let record = FileSystem.read(path, offset: offset, count: 56), record.count == 56,
            record[0] == 0x50, record[1] == 0x4B, record[2] == 6, record[3] == 6
        else { return nil }
        let entries = number(record, 32, 8)
        return entries >= 0 ? entries : nil
    }

    /// Extracts `zipPath` (or reuses an earlier complete extraction) and returns its folder and the
    /// entries that were skipped.
    func extract(_ zipPath: String) throws(ExportError) -> (folder: String, issues: [ExportIssue]) {
        let cache = try prepareCache()
        guard let resolvedZip = FileSystem.realPath(zipPath) else { throw ExportError.notFound(path: zipPath) }
        let info: stat
        switch FileSystem.status(resolvedZip) {
        case .success(let value): info = value
        case .failure(let error): throw ExportError.unreadable(path: zipPath, reason: error.reason)
        }
        var hasher = ContentHasher()
        hasher.combine("oceq-zip-1")
        hasher.combine(resolvedZip)
        hasher.combine(Int(info.st_size))
        hasher.combine(Int(info.st_mtim.tv_sec))
        hasher.combine(Int(info.st_mtim.tv_nsec))
        let key = hasher.finalize().hex
        let final = cache + "/" + key
        let marker = final + "/" + Self.markerName

        // Looked at without following links: a link planted at `<key>` (or its marker) in the
        // cache is not an extraction, and is moved aside (the link itself) like a stale folder.
        let held = try? ContainedDirectory(root: cache)
        if held?.kind(key) == .directory, held?.kind(key + "/" + Self.markerName) == .regular {
            return (final, Self.readMarker(marker, zipPath: zipPath))
        }
        if held?.kind(key) ?? FileSystem.kind(final) != .missing {
            // A folder without its marker was not made by a complete extraction: move it aside.
            let stale = cache + "/.stale-\(key)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if rename(final, stale) == 0 { FileSystem.removeTree(stale) }
        }

        let directory = Self.endOfCentralDirectory(resolvedZip)
        guard directory.found else {
            throw ExportError.corruptArchive(path: zipPath, reason: "no end-of-central-directory record (cut short?)")
        }
        // The count the zip declares refuses it before anything is written; the count while
        // extracting catches a zip that lies.
        if let declared = directory.entries, declared > limits.maximumEntries {
            throw ExpansionBudget(limits: limits, zipPath: zipPath).entryRefusal()
        }
        let partial = cache + "/.partial-\(key)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(partial, 0o755) == 0 else {
            throw ExportError.cacheUnusable(path: partial, reason: String(cString: strerror(errno)))
        }
        let issues: [ExportIssue]
        do {
            issues = try Self.unpack(zipPath: zipPath, into: partial, limits: limits)
            try FileSystem.write(Self.markerBytes(issues), to: partial + "/" + Self.markerName)
        } catch let error as ExportError {
            FileSystem.removeTree(partial)
            throw error
        } catch {
            FileSystem.removeTree(partial)
            throw ExportError.cacheUnusable(path: partial, reason: "\(error)")
        }
        if rename(partial, final) != 0 {
            let code = errno
            FileSystem.removeTree(partial)
            // Another process finished the same extraction first: use it.
            if FileSystem.kind(marker) == .regular { return (final, issues) }
            throw ExportError.cacheUnusable(path: final, reason: String(cString: strerror(code)))
        }
        return (final, issues)
    }

    private func prepareCache() throws(ExportError) -> String {
        do {
            try FileSystem.makeDirectories(cacheDirectory)
        } catch {
            throw ExportError.cacheUnusable(path: cacheDirectory, reason: error.reason)
        }
        guard let resolved = FileSystem.realPath(cacheDirectory) else {
            throw ExportError.cacheUnusable(path: cacheDirectory, reason: "cannot resolve the path")
        }
        return resolved
    }

    /// The normalised relative path of an entry name, or nil (with the reason) when it must not be
    /// written.
    static func normalizedEntryPath(_ name: String) -> (path: String?, refusal: String?) {
        let slashed = String(name.map { $0 == "\\" ? "/" : $0 })
        if slashed.hasPrefix("/") { return (nil, "is an absolute path") }
        var components: [Substring] = []
        for component in slashed.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." { return (nil, "points outside the extraction folder") }
            components.append(component)
        }
        if let first = components.first, first.count == 2, first.last == ":" {
            return (nil, "is an absolute path")
        }
        if components.contains(where: { $0.utf8.contains(0) }) { return (nil, "has a NUL byte in its name") }
        if components.isEmpty { return (nil, nil) }
        return (components.joined(separator: "/"), nil)
    }

    private static func unpack(
        zipPath: String, into target: String, limits: ZipLimits
    ) throws(ExportError)
        -> [ExportIssue]
    {
        let archive: oceq_archive_api
        do {
            archive = try CLibraries.requireArchive()
        } catch {
            throw ExportError.corruptArchive(path: zipPath, reason: error.description)
        }
        guard let reader = archive.archive_read_new() else {
            throw ExportError.corruptArchive(path: zipPath, reason: "libarchive could not start")
        }
        defer { _ = archive.archive_read_free(reader) }
        _ = archive.archive_read_support_format_zip(reader)
        guard archive.archive_read_open_filename(reader, zipPath, 1 << 16) == ARCHIVE_OK else {
            throw ExportError.corruptArchive(path: zipPath, reason: errorText(archive, reader))
        }
        guard let writer = archive.archive_write_disk_new() else {
            throw ExportError.corruptArchive(path: zipPath, reason: "libarchive could not start")
        }
        defer { _ = archive.archive_write_free(writer) }
        let flags = ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_TIME
        _ = archive.archive_write_disk_set_options(writer, flags)

        var issues: [ExportIssue] = []
        var entry: OpaquePointer?
        var budget = ExpansionBudget(limits: limits, zipPath: zipPath)
        while true {
            let status = archive.archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status >= ARCHIVE_WARN, let entry else {
                throw ExportError.corruptArchive(path: zipPath, reason: errorText(archive, reader))
            }
            try budget.countEntry()
            if archive.archive_entry_size_is_set(entry) != 0 {
                try budget.expect(archive.archive_entry_size(entry))
            }
            let rawName: String
            if let utf8 = archive.archive_entry_pathname_utf8(entry) {
                rawName = String(cString: utf8)
            } else if let native = archive.archive_entry_pathname(entry) {
                rawName = String(cString: native)
            } else {
                issues.append(ExportIssue(file: zipPath, message: "an entry without a readable name was skipped"))
                continue
            }
            let (relative, refusal) = normalizedEntryPath(rawName)
            if let refusal {
                issues.append(ExportIssue(file: zipPath, message: "entry '\(rawName)' \(refusal); skipped"))
                continue
            }
            guard let relative else { continue }
            let fileType = archive.archive_entry_filetype(entry) & 0o170000
            let isDirectory = fileType == 0o040000
            let isRegular = fileType == 0o100000 || fileType == 0
            if archive.archive_entry_hardlink(entry) != nil || !(isDirectory || isRegular) {
                issues.append(
                    ExportIssue(
                        file: zipPath, message: "entry '\(rawName)' is not a regular file or folder; skipped"))
                continue
            }
            archive.archive_entry_copy_pathname(entry, target + "/" + relative)
            archive.archive_entry_set_perm(entry, isDirectory ? 0o755 : 0o644)
            try copyEntry(entry, named: rawName, archive: archive, reader: reader, writer: writer, budget: &budget)
        }
        return issues
    }

    /// Writes one entry's header and data, counting its bytes against `budget` block by block.
    private static func copyEntry(
        _ entry: OpaquePointer, named rawName: String, archive: oceq_archive_api, reader: OpaquePointer,
        writer: OpaquePointer, budget: inout ExpansionBudget
    ) throws(ExportError) {
        let zipPath = budget.zipPath
        guard archive.archive_write_header(writer, entry) >= ARCHIVE_WARN else {
            let reason = errorText(archive, writer)
            throw ExportError.corruptArchive(path: zipPath, reason: "entry '\(rawName)': \(reason)")
        }
        var block: UnsafeRawPointer?
        var size = 0
        var offset: Int64 = 0
        while true {
            let status = archive.archive_read_data_block(reader, &block, &size, &offset)
            if status == ARCHIVE_EOF { break }
            guard status >= ARCHIVE_WARN else {
                let reason = errorText(archive, reader)
                throw ExportError.corruptArchive(path: zipPath, reason: "entry '\(rawName)': \(reason)")
            }
            try budget.add(Int64(size), compressedSoFar: archive.archive_filter_bytes(reader, -1))
            guard archive.archive_write_data_block(writer, block, size, offset) >= ARCHIVE_WARN else {
                let reason = errorText(archive, writer)
                throw ExportError.corruptArchive(path: zipPath, reason: "entry '\(rawName)': \(reason)")
            }
        }
        guard archive.archive_write_finish_entry(writer) >= ARCHIVE_WARN else {
            let reason = errorText(archive, writer)
            throw ExportError.corruptArchive(path: zipPath, reason: "entry '\(rawName)': \(reason)")
        }
    }

    private static func errorText(_ archive: oceq_archive_api, _ reader: OpaquePointer) -> String {
        if let text = archive.archive_error_string(reader) { return String(cString: text) }
        return "unknown libarchive error"
    }

    private static func markerBytes(_ issues: [ExportIssue]) -> [UInt8] {
        let entries: [JSON] = issues.map { .object(["message": .string($0.message)]) }
        return JSONWriter().bytes(.object(["skipped": .array(entries)]))
    }

    private static func readMarker(_ path: String, zipPath: String) -> [ExportIssue] {
        guard let bytes = try? FileSystem.read(path), let json = try? JSON.parse(bytes) else { return [] }
        return (json["skipped"]?.arrayValue ?? []).compactMap { entry in
            entry["message"]?.stringValue.map { ExportIssue(file: zipPath, message: $0) }
        }
    }
}

/// The running totals of one extraction against its `ZipLimits`.
struct ExpansionBudget {
    let limits: ZipLimits
    let zipPath: String
    private(set) var entries = 0
    private(set) var expanded: Int64 = 0

    init(limits: ZipLimits, zipPath: String) {
        self.limits = limits
        self.zipPath = zipPath
    }

    /// One more entry.
    mutating func countEntry() throws(ExportError) {
        entries += 1
        if entries > limits.maximumEntries { throw entryRefusal() }
    }

    /// The refusal of a zip with too many entries.
    func entryRefusal() -> ExportError {
        refusal("it has more than \(limits.maximumEntries) entries (--zip-max-entries)")
    }

    /// An entry declaring `size` bytes: refused at once when it cannot fit.
    func expect(_ size: Int64) throws(ExportError) {
        if size > limits.maximumExpandedBytes - expanded { throw sizeRefusal() }
    }

    /// `count` more bytes expanded, with `compressed` bytes of the zip read so far.
    mutating func add(_ count: Int64, compressedSoFar compressed: Int64) throws(ExportError) {
        expanded += count
        if expanded > limits.maximumExpandedBytes { throw sizeRefusal() }
        if expanded > 1 << 20, expanded / max(1, compressed) > Int64(limits.maximumRatio) {
            throw refusal(
                "it expands more than \(limits.maximumRatio) times its compressed size (--zip-max-ratio); a zip bomb?")
        }
    }

    private func sizeRefusal() -> ExportError {
        refusal("it expands to more than \(limits.maximumExpandedBytes >> 20) MiB (--zip-max-mib)")
    }

    private func refusal(_ reason: String) -> ExportError {
        .archiveTooLarge(path: zipPath, reason: reason)
    }
}
