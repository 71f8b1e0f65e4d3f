import FoundationEssentials
import Glibc
import OCEQCore

/// Produces rendition files (resized images) on demand; see `oceq serve`'s rendition issue.
public protocol RenditionSource: Sendable {
    /// The file of rendition `name` in `format` (nil: the rendition's default format) of `item`,
    /// generated if needed. Throws `APIError` (404) when the asset has no such rendition.
    func rendition(of item: ExportItem, name: String, format: String?) throws(APIError) -> BinaryFile
    /// The same, at a pixel size the export declares (`box`, the 2018 `uithumbnail`) instead of the
    /// rendition's own; nil is the rendition's own size.
    func rendition(of item: ExportItem, name: String, format: String?, box: ImageSize?) throws(APIError) -> BinaryFile
}

extension RenditionSource {
    /// Sources that cannot follow a declared size make the rendition's own.
    public func rendition(
        of item: ExportItem, name: String, format: String?, box: ImageSize?
    ) throws(APIError)
        -> BinaryFile
    {
        try rendition(of: item, name: name, format: format)
    }
}

/// A binary on disk and how to describe it.
public struct BinaryFile: Sendable {
    public var path: String
    public var mimeType: String
    /// The name offered in `Content-Disposition`.
    public var fileName: String

    public init(path: String, mimeType: String, fileName: String) {
        self.path = path
        self.mimeType = mimeType
        self.fileName = fileName
    }
}

// E5 native files, E6 renditions, E7 thumbnails.
extension DeliveryRouter {
    func assets(_ request: ServerRequest, _ path: [String]) throws(APIError) -> HTTPResponse {
        if let made = madeRendition(request, path) {
            try requireInsideExport(made.native, root: made.exportRoot, id: path[0])
            return try binary(made.file, request, disposition: made.disposition)
        }
        // `/assets/.by.slug/{slug}/...` (and the short `/content/assets/{slug}/...`) name the asset by slug.
        var rest = path
        var slugItem: ExportItem?
        if path.first == ".by.slug" {
            guard path.count >= 2 else { throw .notFound("a slug is required after /assets/.by.slug/") }
            guard let found = try lookUp(slug: path[1]) else {
                throw .itemNotFound("no item with slug '\(path[1])' in this channel")
            }
            slugItem = found
            rest = [found.id] + path.dropFirst(2)
        }
        guard rest.count >= 2, rest.count <= 3 else {
            throw .notFound(
                "asset paths are /assets/{id}/native[/{name}], /assets/{id}/{rendition}[/{name}] or "
                    + "/assets/.by.slug/{slug}/... with the same endings")
        }
        let byId = slugItem == nil ? try lookUp(id: rest[0]) : nil
        guard let item = slugItem ?? byId else {
            throw .notFound("no item \(rest[0]) in this channel")
        }
        guard item.isDigitalAsset, let native = item.nativeFile else {
            throw .notFound("item \(item.id) is a content item, not a digital asset: it has no files")
        }
        try requireInsideExport(native, root: item.exportRoot, id: item.id)
        let file: BinaryFile
        switch rest[1] {
        case "native":
            file = BinaryFile(path: native, mimeType: mimeType(of: item), fileName: item.name)
        default:
            // `thumbnail?type=uithumbnail` (the SDK's form) is the Thumbnail rendition in the default format.
            let name = rest[1] == "thumbnail" ? "Thumbnail" : rest[1]
            guard let renditions else {
                throw .notFound(
                    "rendition '\(name)' of \(item.id) is not available: this server has no rendition engine")
            }
            // The SDK omits `format` on `type=uithumbnail` so the server may pick WebP; it does.
            var format = request.parameter("format")
            var box: ImageSize?
            if request.parameter("type") == "uithumbnail" {
                if format == nil { format = "webp" }
                // The size the export declares for it (2018 exports), else the Thumbnail's own.
                box = SystemRendition.declaredUIThumbnail(in: item.fields)
            }
            file = try renditions.rendition(of: item, name: name, format: format, box: box)
        }
        return try binary(file, request)
    }

    /// A rendition asked by id (`/assets/{id}/{rendition}[/{name}]`, not `type=uithumbnail`, whose
    /// size may come from the item) that the rendition cache already made: answered without reading
    /// the item from the index, which cannot change while the server runs. A third of a cached
    /// rendition's instructions went to that read.
    func madeRendition(_ request: ServerRequest, _ path: [String]) -> MadeRendition? {
        guard path.count == 2 || path.count == 3, path[0] != ".by.slug", path[1] != "native",
            let cache = renditions as? any RenditionCache, request.parameter("type") != "uithumbnail"
        else { return nil }
        let name = path[1] == "thumbnail" ? "Thumbnail" : path[1]
        return cache.made(id: path[0], name: name, format: request.parameter("format"))
    }

    /// A native file is opened (served, or rendered) only while it still resolves inside its export
    /// (`root`): a link planted or swapped in after loading never hands out a file from outside.
    /// Checked on every request, renditions already made included (`NativeContainment`).
    func requireInsideExport(_ native: String, root: String?, id: String) throws(APIError) {
        if let root, !NativeContainment.holds(native, root: root) {
            throw APIError(status: 404, detail: "the file of \(id) is not inside the export; not served")
        }
    }

    /// A file answer: ETag from size and modification time, 304, Range → 206 / 416, disposition
    /// (`disposition`: the file's own when the request has no `download` parameter, made already).
    func binary(
        _ file: BinaryFile, _ request: ServerRequest, disposition known: String? = nil
    ) throws(APIError) -> HTTPResponse {
        var info = stat()
        guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw APIError(status: 500, detail: "the file of this resource is missing from the export")
        }
        let size = Int(info.st_size)
        let tag = EntityTag.ofFile(
            path: file.path, size: size, seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", file.mimeType), ("ETag", tag), ("Accept-Ranges", "bytes"),
            ("Content-Disposition", (request.parameter("download") == nil ? known : nil) ?? disposition(file, request)),
        ]
        if EntityTag.noneMatch(request.header("If-None-Match"), matches: tag) {
            return HTTPResponse(status: 304, headers: [("ETag", tag)])
        }
        var rangeHeader = request.header("Range")
        if let ifRange = request.header("If-Range"), ifRange.trimmingSpaces() != tag { rangeHeader = nil }
        switch ByteRange.resolve(rangeHeader, size: size) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(path: file.path, offset: 0, length: size))
        case .partial(let range):
            headers.append(("Content-Range", "bytes \(range.offset)-\(range.offset + range.length - 1)/\(size)"))
            return HTTPResponse(
                status: 206, headers: headers, body: .file(path: file.path, offset: range.offset, length: range.length))
        case .unsatisfiable:
            throw APIError(
                status: 416, detail: "the range starts beyond the \(size) bytes of this file",
                headers: ["Content-Range": "bytes */\(size)"])
        }
    }

    /// Images, audio and video inline, other files as attachments; `download=true|false` overrides.
    func disposition(_ file: BinaryFile, _ request: ServerRequest) -> String {
        DeliveryRouter.disposition(
            fileName: file.fileName, mimeType: file.mimeType, download: request.parameter("download"))
    }

    /// The `Content-Disposition` value for a file, built over UTF-8 bytes (as String work it was a
    /// third of a cached rendition's CPU). Bidirectional controls are dropped from the name, so a
    /// browser never offers `gpj.exe` reversed to read as `exe.jpg`.
    static func disposition(fileName rawName: String, mimeType: String, download: String?) -> String {
        let fileName = BidiControls.stripped(rawName)
        let slash = UInt8(ascii: "/")
        let media = mimeType.utf8.drop(while: { $0 == slash }).prefix(while: { $0 != slash })
        var inline =
            media.elementsEqual("image".utf8) || media.elementsEqual("audio".utf8) || media.elementsEqual("video".utf8)
        switch download?.lowercased() {
        case "true": inline = false
        case "false": inline = true
        default: break
        }
        var out: [UInt8] = []
        out.reserveCapacity(40 + fileName.utf8.count * 4)
        out.append(contentsOf: (inline ? "inline; filename=\"" : "attachment; filename=\"").utf8)
        // The ASCII fallback: one `_` per Unicode scalar outside printable ASCII, and for `"` and `\`.
        for byte in fileName.utf8 {
            switch byte {
            case 0x80..<0xC0: continue  // a continuation byte: its character already has its `_`
            case 0x20..<0x7F where byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\"): out.append(byte)
            default: out.append(UInt8(ascii: "_"))
            }
        }
        out.append(contentsOf: "\"; filename*=UTF-8''".utf8)
        out.append(contentsOf: URLEncoding.component(fileName).utf8)
        return out.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The asset's media type: `fields.mimeType`, else from its extension.
    func mimeType(of item: ExportItem) -> String {
        if let declared = item.fields["mimeType"]?.stringValue, declared.contains("/") {
            return declared == "image/jpg" ? "image/jpeg" : declared
        }
        return MediaTypes.forFileName(item.name)
    }
}

extension MediaTypes {
    /// The media type for a file name, `application/octet-stream` when unknown.
    public static func forFileName(_ name: String) -> String {
        fileExtension(ofName: name).flatMap(mimeType(forExtension:)) ?? "application/octet-stream"
    }
}
