import OCEQCore

/// A rendition source that can tell, without work, whether a rendition is already made.
public protocol RenditionCache: Sendable {
    /// Rendition `name` in `format` of the item `id` when it is on disk and known, so answering it
    /// is a lookup; nil when answering may mean rendering (or when it cannot tell).
    func made(id: String, name: String, format: String?) -> MadeRendition?
}

extension RenditionCache {
    /// True when `made(id:name:format:)` knows the rendition.
    public func isMade(id: String, name: String, format: String?) -> Bool {
        made(id: id, name: name, format: format) != nil
    }
}

/// A rendition already on disk, with what its request checks without reading the channel's index:
/// the native file it was made from, which must still lie inside its export (`exportRoot`).
public struct MadeRendition: Sendable {
    /// The file served.
    public var file: BinaryFile
    /// The asset's native file.
    public var native: String
    /// The canonical folder of the asset's export, when it was read from a folder.
    public var exportRoot: String?
    /// The file's `Content-Disposition` when the request has no `download` parameter, made once.
    public var disposition: String

    public init(file: BinaryFile, native: String, exportRoot: String?) {
        self.file = file
        self.native = native
        self.exportRoot = exportRoot
        disposition = DeliveryRouter.disposition(fileName: file.fileName, mimeType: file.mimeType, download: nil)
    }
}

extension DeliveryRouter {
    /// `handle`, except that a rendition that may need rendering is answered `HTTPResponse.later`,
    /// so the server makes it on its slow-answer pool and no request thread waits for libvips. A
    /// request without credentials is answered at once: it never takes a place in that pool's queue.
    public func handleDeferringRenditions(_ request: ServerRequest) -> HTTPResponse {
        guard mayRender(request) else { return handle(request) }
        do {
            _ = try gate(request)  // only its refusal matters here: the path is taken again by `handle`
        } catch {
            return error.response
        }
        return .later { self.handle(request) }
    }

    /// True for `/assets/{id}/{rendition}...` (not `native`) whose rendition is not known to be made.
    func mayRender(_ request: ServerRequest) -> Bool {
        let segments = request.pathSegments
        let count = DeliveryRouter.prefix.count
        guard segments.count >= count + 3, segments[count] == "assets", segments[count + 2] != "native",
            let renditions
        else { return false }
        guard let cache = renditions as? any RenditionCache else { return true }
        let name = segments[count + 2] == "thumbnail" ? "Thumbnail" : segments[count + 2]
        var format = request.parameter("format")
        if format == nil, request.parameter("type") == "uithumbnail" { format = "webp" }
        return !cache.isMade(id: segments[count + 1], name: name, format: format)
    }
}
