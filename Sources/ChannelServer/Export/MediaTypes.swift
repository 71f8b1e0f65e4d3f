import OCEQCore

/// MIME types, file groups and extensions of digital assets.
public enum MediaTypes {
    /// The MIME type for a file extension (lower-case, without the dot), or nil when unknown.
    public static func mimeType(forExtension ext: String) -> String? {
        table[ext.lowercased()]
    }

    /// `Images`, `Videos` or `Files`, from a MIME type.
    public static func fileGroup(forMimeType mime: String) -> String {
        let lower = mime.lowercased()
        if lower.hasPrefix("image/") { return "Images" }
        if lower.hasPrefix("video/") { return "Videos" }
        return "Files"
    }

    /// The lower-case extension of a file name (`"a.b.JPG"` → `"jpg"`), or nil.
    public static func fileExtension(ofName name: String) -> String? {
        // Bytes, not characters: a '.' is never part of another character in UTF-8.
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return nil }
        let ext = name[name.utf8.index(after: dot)...]
        guard !ext.isEmpty, ext.count <= 10, !ext.utf8.contains(UInt8(ascii: "/")) else { return nil }
        return ext.lowercased()
    }

    /// A MIME type as Delivery prints it: lower-case, `image/jpg` (gen A) as `image/jpeg`.
    public static func canonical(_ mime: String) -> String {
        let lower = mime.lowercased()
        switch lower {
        case "image/jpg", "image/pjpeg": return "image/jpeg"
        case "image/x-png": return "image/png"
        default: return lower
        }
    }

    private static let table: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "bmp": "image/bmp", "svg": "image/svg+xml", "svgz": "image/svg+xml",
        "tif": "image/tiff", "tiff": "image/tiff", "ico": "image/x-icon", "avif": "image/avif", "heic": "image/heic",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "avi": "video/x-msvideo",
        "mpeg": "video/mpeg", "mpg": "video/mpeg", "ogv": "video/ogg", "mp3": "audio/mpeg", "wav": "audio/wav",
        "ogg": "audio/ogg", "m4a": "audio/mp4", "pdf": "application/pdf", "txt": "text/plain", "csv": "text/csv",
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "application/javascript",
        "json": "application/json", "xml": "application/xml", "zip": "application/zip",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "md": "text/markdown", "rtf": "application/rtf", "woff": "font/woff", "woff2": "font/woff2",
    ]
}

/// Reference stubs in item fields: `{id, type, typeCategory?, name?, fileExtension?}`.
enum ReferenceStub {
    /// Keys a stub may carry (exported or delivered).
    static let keys: Set<String> = ["id", "type", "typeCategory", "name", "fileExtension", "links", "description"]

    /// True for an object with string `id` and `type` and no keys beyond a stub's.
    static func looksLikeStub(_ json: JSON) -> Bool {
        guard case .object(let members) = json, members["id"]?.stringValue != nil,
            members["type"]?.stringValue != nil
        else { return false }
        return members.keys.allSatisfy { keys.contains($0) }
    }

    /// True when a field value (single or list) holds stubs only (and at least one).
    static func holdsStubs(_ value: JSON) -> Bool {
        switch value {
        case .object: return looksLikeStub(value)
        case .array(let elements):
            return !elements.isEmpty && elements.allSatisfy { $0.isNull || looksLikeStub($0) }
                && elements.contains { !$0.isNull }
        default: return false
        }
    }

    /// The category of a dangling reference, guessed from its id prefix and type.
    static func guessCategory(id: String, type: String) -> String {
        if id.hasPrefix("CONT") || type == "DigitalAsset" { return ContentTypeDefinition.digitalAssetType }
        return ContentTypeDefinition.contentType
    }
}
