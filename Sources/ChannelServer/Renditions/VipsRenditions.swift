// Renditions generated with libvips on first request and cached on disk.
//
// The system renditions of OCM (export-format.md §4): Thumbnail 150, Small 300, Medium 1024 and
// Large at the native width, never upscaled, heights floor(width × native height / native width),
// each in jpg, png and webp. A file is rendered to a temporary name and renamed, so a reader
// never sees half a file; one lock per rendition makes concurrent first requests render it once.
import CVips
import Foundation

/// A rendition engine over libvips with an on-disk cache.
public final class VipsRenditions: RenditionSource, @unchecked Sendable {
    /// The system renditions by name and the width each asks for (nil: the native width).
    public static let system: [(name: String, width: Int?)] = [
        ("Thumbnail", 150), ("Small", 300), ("Medium", 1024), ("Large", nil),
    ]
    /// The formats every image rendition is offered in.
    public static let formats = ["jpg", "png", "webp"]

    let directory: String
    private let lock = NSLock()
    private var keyLocks: [String: NSLock] = [:]
    private var probes: [String: (width: Int, height: Int)?] = [:]

    /// An engine caching under `directory` (created when needed); nil if libvips cannot start.
    public init?(directory: String) {
        guard VipsRenditions.started else { return nil }
        self.directory = directory
    }

    private static let started: Bool = oceq_vips_init() == 0

    /// The dimensions of a system rendition for an image of the given native size.
    public static func size(of name: String, nativeWidth: Int, nativeHeight: Int) -> (width: Int, height: Int)? {
        guard let entry = system.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
        let width = min(entry.width ?? nativeWidth, nativeWidth)
        let height = max(1, Int((Double(nativeHeight) * Double(width) / Double(nativeWidth)).rounded(.down)))
        return (max(1, width), height)
    }

    /// The native size of an image file, read from its header by libvips (cached); nil if it cannot be decoded.
    public func nativeSize(of path: String) -> (width: Int, height: Int)? {
        lock.lock()
        if let known = probes[path] {
            lock.unlock()
            return known
        }
        lock.unlock()
        var width: Int32 = 0
        var height: Int32 = 0
        let size: (width: Int, height: Int)? =
            oceq_vips_probe(path, &width, &height) == 0 && width > 0 && height > 0 ? (Int(width), Int(height)) : nil
        lock.lock()
        probes[path] = size
        lock.unlock()
        return size
    }

    public func rendition(of item: ExportItem, name: String, format: String?) throws(APIError) -> BinaryFile {
        guard let native = item.nativeFile, MediaTypes.forFileName(item.name).hasPrefix("image/") else {
            throw .notFound("item \(item.id) is not an image: it has no renditions")
        }
        guard let canonical = VipsRenditions.system.first(where: { $0.name.lowercased() == name.lowercased() })?.name
        else {
            throw .notFound(
                "asset \(item.id) has no rendition '\(name)'; it has \(VipsRenditions.system.map(\.name).joined(separator: ", "))"
            )
        }
        var chosen = (format ?? "jpg").lowercased()
        if chosen == "jpeg" { chosen = "jpg" }
        guard VipsRenditions.formats.contains(chosen) else {
            throw .notFound(
                "rendition \(canonical) of \(item.id) has no format '\(format ?? "")'; it has jpg, png, webp")
        }
        guard let measured = nativeSize(of: native),
            let size = VipsRenditions.size(of: canonical, nativeWidth: measured.width, nativeHeight: measured.height)
        else {
            throw .notFound("asset \(item.id) cannot be decoded as an image, so it has no renditions")
        }
        let folder = "\(directory)/\(VipsRenditions.safe(item.id))"
        let path = "\(folder)/\(canonical)-\(size.width)x\(size.height).\(chosen)"
        let baseName = (item.name as NSString).deletingPathExtension
        let file = BinaryFile(
            path: path, mimeType: MediaTypes.forFileName("x.\(chosen)"), fileName: "\(baseName).\(chosen)")
        if FileManager.default.fileExists(atPath: path) { return file }

        let keyLock = lockFor(path)
        keyLock.lock()
        defer { keyLock.unlock() }
        if FileManager.default.fileExists(atPath: path) { return file }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = "\(folder)/.\(UUID().uuidString).\(chosen)"
        let options = chosen == "png" ? "[compression=6,strip]" : "[Q=80,strip]"
        var error = [CChar](repeating: 0, count: 512)
        let failed = oceq_vips_render(
            native, Int32(size.width), Int32(size.height), temporary + options, &error, error.count)
        guard failed == 0 else {
            unlink(temporary)
            let text = String(decoding: error.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = text.split(separator: "\n").first.map(String.init) ?? "unknown error"
            throw .notFound("rendition \(canonical) of \(item.id) could not be made: \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw APIError(status: 500, detail: "the rendition cache at \(directory) is not writable")
        }
        return file
    }

    private func lockFor(_ key: String) -> NSLock {
        lock.lock()
        defer { lock.unlock() }
        if let existing = keyLocks[key] { return existing }
        let made = NSLock()
        keyLocks[key] = made
        return made
    }

    /// An id made safe as a folder name (ids are opaque strings from the export).
    static func safe(_ id: String) -> String {
        let cleaned = id.unicodeScalars.map {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "_"
        }
        return String(cleaned.prefix(80)) + "-" + String(EntityTag.fnv1a(Array(id.utf8)), radix: 16)
    }
}
