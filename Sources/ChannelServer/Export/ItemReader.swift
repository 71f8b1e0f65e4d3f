// Reads one item file into an `ExportItem` (runs on worker threads; pure apart from file reads).
//
// Per generation: gen A/B items have no `typeCategory` (taken from the type file, else inferred:
// `DigitalAsset` or a `fields.native` means an asset); gen D assets carry top-level `mimeType`,
// `fileGroup` and `fileExtension` (used first), older ones only `fields.mimeType`/`fileGroup`
// (then the extension decides). The native file is `files/<ID>/<name>`, else the single file in
// that folder; its size on disk replaces `fields.size`. An image's pixel size comes from
// `fields.metadata` when it holds numbers, else from the file's header (gen A has `metadata: {}`).

import Glibc
import OCEQCore

enum ItemReader {
    /// Bytes of a native file hashed in full; larger files are sampled (size, first and last
    /// 32 KiB) so fingerprinting a channel of large videos stays cheap.
    static let fullHashLimit = 64 * 1024

    /// Reads and parses `job`'s item file; a file over `limit` bytes is skipped unread (a sparse
    /// 1 GB "item" would otherwise be read whole at start). `folder`: the job's folder, open and
    /// known to lie inside the export; the file is then opened in it unless it is a link, which is
    /// followed by path and checked like any other.
    static func read(
        _ job: ItemJob, folder: Int32? = nil, types: [String: ContentTypeDefinition],
        limit: Int = ExportLoadOptions.defaultMaximumItemFileBytes
    ) -> ParsedItem {
        let path = job.path
        let bytes: [UInt8]
        do throws(FileSystemError) {
            let fd = folder.map { openat($0, job.fileName, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW) } ?? -1
            if fd >= 0 {
                bytes = try FileSystem.read(fd: fd, path: path, limit: limit)
            } else if folder != nil && errno != ELOOP {
                throw FileSystemError(path: path, code: errno)
            } else {
                bytes = try FileSystem.read(path, inside: job.resolvedRoot, limit: limit)
            }
        } catch {
            return ParsedItem(
                job: job, issues: [ExportIssue(file: path, message: "cannot read: \(error.reason); item skipped")],
                digest: ContentHasher.digest(of: []))
        }
        return parse(bytes, job: job, types: types)
    }

    /// Turns the bytes of `job`'s item file into an item; only an asset's native file is looked up
    /// on disk (under `job.root`).
    static func parse(_ bytes: [UInt8], job: ItemJob, types: [String: ContentTypeDefinition]) -> ParsedItem {
        let path = job.path
        var result = ParsedItem(job: job, digest: ContentHasher.digest(of: bytes))
        let json: JSON
        do {
            json = try JSON.parse(bytes)
        } catch {
            result.issues.append(ExportIssue(file: path, message: "not valid JSON (\(error)); item skipped"))
            return result
        }
        guard case .object(let raw) = json else {
            result.issues.append(ExportIssue(file: path, message: "not a JSON object; item skipped"))
            return result
        }
        guard let id = raw["id"]?.stringValue, !id.isEmpty else {
            result.issues.append(ExportIssue(file: path, message: "item has no id; skipped"))
            return result
        }
        // The id names the native file's folder, so it must be one path component.
        // Tested byte by byte: `contains("/")` resolved to Foundation's string search, a tenth of
        // the time spent parsing an item.
        guard !id.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }),
            id != ".", id != ".."
        else {
            result.issues.append(ExportIssue(file: path, message: "item id '\(id)' is not a valid id; skipped"))
            return result
        }
        let type = raw["type"]?.stringValue ?? job.folder
        let fields = raw["fields"]?.objectValue ?? raw["data"]?.objectValue ?? [:]
        let name = raw["name"]?.stringValue ?? ""

        var item = ExportItem(
            id: id, type: type, typeCategory: "", name: name,
            description: raw["description"]?.stringValue ?? "", slug: nonEmpty(raw["slug"]?.stringValue),
            language: nonEmpty(raw["language"]?.stringValue), translatable: raw["translatable"]?.boolValue,
            createdDate: raw["createdDate"].map { ExportDateText.normalize($0, wrapStrings: true) },
            updatedDate: raw["updatedDate"].map { ExportDateText.normalize($0, wrapStrings: true) },
            fields: fields,
            // `taxonomies` is kept when it assigns categories (the index and the shaper read it).
            raw: raw.filter {
                ($0.key == "taxonomies" && !TaxonomyAssignment.read($0.value).isEmpty)
                    || (!DeliveryShaper.droppedKeys.contains($0.key) && !DeliveryShaper.standardKeys.contains($0.key))
            },
            typeFolder: job.folder)
        item.sourceFolder = job.folderPath
        item.sourceName = ExportItem.isNamed(job.fileName, after: id) ? nil : job.fileName
        item.typeCategory = category(of: raw, type: type, fields: fields, types: types)

        if item.isDigitalAsset {
            readAsset(into: &item, raw: raw, job: job, result: &result)
        } else {
            item.mimeType = "contentItem"
            item.fileGroup = "contentItem"
        }
        result.item = item
        return result
    }

    /// Moves the fields of `parsed`'s items into one buffer, each item keeping its slice. When
    /// the loader fills references in, it gives items new, longer fields: each item's own buffer,
    /// freed, left a hole between strings still held, which no new fields fit in and no page could
    /// be returned from; a chunk's buffer is freed whole, in pages the loader hands back
    /// (`Assembly.finish`). Together: 1.84 -> 1.52 GB at the peak of a 1M build; either alone
    /// gained nothing.
    static func packFields(_ parsed: inout [ParsedItem]) {
        var total = 0
        for entry in parsed { total += entry.item?.storedFields.count ?? 0 }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(total)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(parsed.count)
        for entry in parsed {
            let start = buffer.count
            if let fields = entry.item?.storedFields { buffer += fields }
            ranges.append(start..<buffer.count)
        }
        for index in parsed.indices where parsed[index].item != nil {
            parsed[index].item!.storedFields = buffer[ranges[index]]
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// The item's own category, else its type file's, else inferred from its shape.
    static func category(
        of raw: [String: JSON], type: String, fields: [String: JSON], types: [String: ContentTypeDefinition]
    ) -> String {
        if let own = raw["typeCategory"]?.stringValue, !own.isEmpty { return own }
        if let fromType = types[type]?.typeCategory, !fromType.isEmpty { return fromType }
        if type == "DigitalAsset" || fields["native"] != nil { return ContentTypeDefinition.digitalAssetType }
        return ContentTypeDefinition.contentType
    }

    private static func readAsset(
        into item: inout ExportItem, raw: [String: JSON], job: ItemJob, result: inout ParsedItem
    ) {
        let fields = item.fields
        // The native file.
        let folder = job.root + "/ContentItems/" + job.folder + "/files/" + item.id
        switch locateNative(folder: folder, name: item.name, root: job.resolvedRoot) {
        case .found(let file):
            item.nativeFile = file
            item.exportRoot = job.resolvedRoot
            item.nativeSize = FileSystem.fileSize(file)
            result.nativeDigest = nativeDigest(file, size: item.nativeSize ?? 0)
        case .missing(let reason):
            if fields["native"] != nil || FileSystem.kind(folder) != .missing {
                result.issues.append(ExportIssue(file: job.path, message: reason))
            }
        }
        let fileName = item.nativeFile.map { String($0.split(separator: "/").last ?? "") } ?? item.name

        // Extension, MIME type, file group: gen D top level, then fields, then the file name.
        let topExtension = raw["fileExtension"]?.stringValue.flatMap { $0 == "contentItem" ? nil : $0 }
        item.fileExtension =
            nonEmpty(topExtension)?.lowercased() ?? MediaTypes.fileExtension(ofName: item.name)
            ?? MediaTypes.fileExtension(ofName: fileName) ?? ""
        let topMime = raw["mimeType"]?.stringValue.flatMap { $0 == "contentItem" ? nil : $0 }
        let mime =
            nonEmpty(topMime) ?? nonEmpty(fields["mimeType"]?.stringValue)
            ?? MediaTypes.mimeType(forExtension: item.fileExtension ?? "") ?? "application/octet-stream"
        item.mimeType = MediaTypes.canonical(mime)
        let topGroup = raw["fileGroup"]?.stringValue.flatMap { $0 == "contentItem" ? nil : $0 }
        item.fileGroup =
            nonEmpty(topGroup) ?? nonEmpty(fields["fileGroup"]?.stringValue)
            ?? MediaTypes.fileGroup(forMimeType: item.mimeType ?? "")

        // Pixel size of images: the file's own header wins over `fields.metadata`. A JPEG, PNG,
        // GIF or WebP whose header cannot be read gets no size, so it lists no renditions (its
        // native file is still served); other formats fall back to the metadata.
        if item.mimeType?.hasPrefix("image/") == true || item.fileGroup == "Images" {
            let header = item.nativeFile.flatMap { ImageHeader.size(ofFile: $0) }
            let readable = ["image/jpeg", "image/png", "image/gif", "image/webp"].contains(item.mimeType ?? "")
            if let header {
                item.imageSize = header
            } else if !readable || item.nativeFile == nil,
                let width = fields["metadata"]?["width"]?.intValue,
                let height = fields["metadata"]?["height"]?.intValue,
                width > 0, height > 0
            {
                item.imageSize = ImageSize(width: width, height: height)
            }
        }
    }

    enum NativeLookup {
        case found(String)
        case missing(String)
    }

    /// `folder/<name>`, else the single regular file in `folder`; a file or folder reached through
    /// a link out of `root` (the export's canonical path) is not taken.
    static func locateNative(folder: String, name: String, root: String) -> NativeLookup {
        if !name.isEmpty, !name.contains("/"), name != ".", name != "..",
            FileSystem.kind(folder + "/" + name) == .regular, NativeContainment.holds(folder + "/" + name, root: root)
        {
            return .found(folder + "/" + name)
        }
        let shortFolder = folder.split(separator: "/").suffix(2).joined(separator: "/")
        guard let entries = try? FileSystem.list(folder, inside: root) else {
            return .missing("native file missing: no folder \(shortFolder)/; the asset is served without it")
        }
        let files = entries.filter { $0.kind == .regular }
        if files.count == 1 { return .found(folder + "/" + files[0].name) }
        if files.isEmpty {
            return .missing("native file missing: \(shortFolder)/ is empty; the asset is served without it")
        }
        return .missing(
            "native file ambiguous: \(shortFolder)/ holds \(files.count) files and none is named '\(name)'")
    }

    /// A digest of a native file: all bytes when small, else its size and first and last 32 KiB.
    static func nativeDigest(_ path: String, size: Int) -> ContentDigest {
        var hasher = ContentHasher()
        hasher.combine(size)
        if size <= fullHashLimit {
            hasher.combine(FileSystem.read(path, offset: 0, count: size) ?? [])
        } else {
            let half = fullHashLimit / 2
            hasher.combine(FileSystem.read(path, offset: 0, count: half) ?? [])
            hasher.combine(FileSystem.read(path, offset: size - half, count: half) ?? [])
        }
        return hasher.finalize()
    }
}
