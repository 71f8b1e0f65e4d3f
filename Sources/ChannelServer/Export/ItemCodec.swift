// A compact binary form of `ExportItem` and of a channel's non-item content, for the item store
// in the index file (so a served channel keeps no item in memory, and a restart reads none).
//
// Layout: length-prefixed fields in a fixed order, JSON values as compact JSON text. Paths under
// one of the channel's content folders are written relative to it (folder number plus rest), so a
// file built for an export at one path serves the same export moved elsewhere; `roots` and
// `resolvedRoots` are the content folders of the process decoding. Any change to the form bumps
// IndexSchema.version (the files are rebuilt).

import OCEQCore

/// Encodes items and non-item content for the item store, paths relative to the content folders.
struct ItemCodec: Sendable {
    /// The content folders, in order, and their canonical paths.
    let roots: [String]
    let resolvedRoots: [String]

    init(roots: [String]) {
        self.roots = roots
        resolvedRoots = roots.map { FileSystem.realPath($0) ?? $0 }
    }

    static let version = 1

    func encode(_ item: ExportItem) -> [UInt8] {
        var out = ByteWriter(capacity: item.storedFields.count + 256)
        out.string(item.id)
        out.string(item.type)
        out.string(item.typeCategory)
        out.string(item.name)
        out.string(item.description)
        out.optional(item.slug)
        out.optional(item.language)
        out.int(item.translatable.map { $0 ? 2 : 1 } ?? 0)
        out.optional(item.storedCreatedDate.map { String(decoding: $0.compactJSON, as: UTF8.self) })
        out.optional(item.storedUpdatedDate.map { String(decoding: $0.compactJSON, as: UTF8.self) })
        out.byteArray(item.storedFields)
        path(item.nativeFile, &out)
        path(item.exportRoot, &out)
        out.int(item.raw.count)
        for key in item.raw.keys.sorted() {
            out.string(key)
            out.json(item.raw[key]!)
        }
        path(item.sourceFile, &out)
        out.optional(item.typeFolder)
        out.optional(item.mimeType)
        out.optional(item.fileGroup)
        out.optional(item.fileExtension)
        out.int(item.nativeSize.map { $0 + 1 } ?? 0)
        out.int(item.imageSize.map { $0.width + 1 } ?? 0)
        out.int(item.imageSize?.height ?? 0)
        out.int(item.referenceFields.count)
        for name in item.referenceFields.sorted() { out.string(name) }
        return out.bytes
    }

    func decode(_ bytes: UnsafeRawBufferPointer) throws(ByteReader.Malformed) -> ExportItem {
        var input = ByteReader(bytes)
        var item = ExportItem(
            id: try input.string(), type: try input.string(), typeCategory: try input.string(),
            name: try input.string(), description: try input.string(), slug: try input.optional(),
            language: try input.optional())
        switch try input.int() {
        case 2: item.translatable = true
        case 1: item.translatable = false
        default: break
        }
        item.storedCreatedDate = try input.optional().map { .text(Array($0.utf8)) }
        item.storedUpdatedDate = try input.optional().map { .text(Array($0.utf8)) }
        item.storedFields = ArraySlice(try input.byteArray())
        item.nativeFile = try path(&input)
        item.exportRoot = try path(&input)
        let rawCount = try input.int()
        var raw: [String: JSON] = [:]
        for _ in 0..<max(0, rawCount) { raw[try input.string()] = try input.json() }
        item.raw = raw
        // Kept whole, not split into folder and name: this runs for every item a request reads.
        item.sourceName = try path(&input) ?? ""
        item.typeFolder = try input.optional()
        item.mimeType = try input.optional()
        item.fileGroup = try input.optional()
        item.fileExtension = try input.optional()
        let size = try input.int()
        item.nativeSize = size > 0 ? size - 1 : nil
        let width = try input.int()
        let height = try input.int()
        item.imageSize = width > 0 ? ImageSize(width: width - 1, height: height) : nil
        let referenceCount = try input.int()
        var references: Set<String> = []
        for _ in 0..<max(0, referenceCount) { references.insert(try input.string()) }
        item.referenceFields = references
        return item
    }

    // MARK: - Paths

    /// 0: nil; 1: absolute; 2 + 2n: under root n; 3 + 2n: under resolved root n.
    private func path(_ value: String?, _ out: inout ByteWriter) {
        guard let value else { return out.int(0) }
        for (number, root) in roots.enumerated() {
            if let rest = Self.relative(value, to: root) {
                out.int(2 + 2 * number)
                return out.string(rest)
            }
            if let rest = Self.relative(value, to: resolvedRoots[number]) {
                out.int(3 + 2 * number)
                return out.string(rest)
            }
        }
        out.int(1)
        out.string(value)
    }

    private func path(_ input: inout ByteReader) throws(ByteReader.Malformed) -> String? {
        let tag = try input.int()
        switch tag {
        case 0: return nil
        case 1: return try input.string()
        default:
            let number = (tag - 2) / 2
            guard number < roots.count else { throw ByteReader.Malformed() }
            let base = tag % 2 == 0 ? roots[number] : resolvedRoots[number]
            let rest = try input.string()
            return rest.isEmpty ? base : base + "/" + rest
        }
    }

    /// `path` without `root/` (empty for `root` itself), or nil when it is not under `root`.
    private static func relative(_ path: String, to root: String) -> String? {
        guard !root.isEmpty, path.hasPrefix(root) else { return nil }
        if path.utf8.count == root.utf8.count { return "" }
        let rest = path.dropFirst(root.count)
        guard rest.first == "/" else { return nil }
        return String(rest.dropFirst())
    }

    // MARK: - Non-item content

    /// Types, taxonomies, variation sets and issues (what a restart needs besides the items).
    func encodeParts(of content: ChannelContent) -> [UInt8] {
        var out = ByteWriter(capacity: 4096)
        out.int(Self.version)
        out.int(content.contentTypes.count)
        for name in content.contentTypes.keys.sorted() {
            let type = content.contentTypes[name]!
            out.string(type.name)
            out.string(type.typeCategory)
            out.json(type.raw)
            out.int(type.isInferred ? 1 : 0)
            out.int(type.fields.count)
            for field in type.fields {
                out.string(field.name)
                out.string(field.datatype)
                out.string(field.valuecount.rawValue)
                out.int(field.referenceTypes.count)
                for reference in field.referenceTypes { out.string(reference) }
            }
        }
        out.json(.array(content.taxonomies))
        out.int(content.variationSets.count)
        for set in content.variationSets {
            out.string(set.id)
            out.string(set.varType)
            out.string(set.masterItemId)
            out.optional(set.type)
            out.int(set.items.count)
            for member in set.items {
                out.string(member.id)
                out.string(member.value)
                out.int(member.isMaster ? 1 : 0)
            }
        }
        out.int(content.issues.count)
        for issue in content.issues {
            path(issue.file, &out)
            out.string(issue.message)
        }
        return out.bytes
    }

    /// Reads `encodeParts` back into `content` (items and fingerprint untouched).
    func decodeParts(_ bytes: [UInt8], into content: inout ChannelContent) throws(ByteReader.Malformed) {
        let decoded: Result<ChannelContent, ByteReader.Malformed> = bytes.withUnsafeBytes { buffer in
            var input = ByteReader(buffer)
            var parts = content
            do throws(ByteReader.Malformed) {
                guard try input.int() == Self.version else { throw ByteReader.Malformed() }
                var types: [String: ContentTypeDefinition] = [:]
                for _ in 0..<max(0, try input.int()) {
                    var type = ContentTypeDefinition(name: try input.string(), typeCategory: try input.string())
                    type.raw = try input.json()
                    type.isInferred = try input.int() == 1
                    for _ in 0..<max(0, try input.int()) {
                        let name = try input.string()
                        let datatype = try input.string()
                        let count = FieldDefinition.ValueCount(rawValue: try input.string()) ?? .single
                        var references: [String] = []
                        for _ in 0..<max(0, try input.int()) { references.append(try input.string()) }
                        type.fields.append(
                            FieldDefinition(
                                name: name, datatype: datatype, valuecount: count, referenceTypes: references))
                    }
                    types[type.name] = type
                }
                parts.contentTypes = types
                parts.taxonomies = try input.json().arrayValue ?? []
                var sets: [ExportVariationSet] = []
                for _ in 0..<max(0, try input.int()) {
                    var set = ExportVariationSet(
                        id: try input.string(), varType: try input.string(), masterItemId: try input.string(),
                        type: try input.optional())
                    for _ in 0..<max(0, try input.int()) {
                        set.items.append(
                            .init(id: try input.string(), value: try input.string(), isMaster: try input.int() == 1))
                    }
                    sets.append(set)
                }
                parts.variationSets = sets
                var issues: [ExportIssue] = []
                for _ in 0..<max(0, try input.int()) {
                    issues.append(ExportIssue(file: try path(&input) ?? "", message: try input.string()))
                }
                parts.issues = issues
                return .success(parts)
            } catch {
                return .failure(error)
            }
        }
        content = try decoded.get()
    }
}
