// Renditions generated with libvips on first request and cached on disk.
//
// The system renditions of OCM (`SystemRendition`, export-format.md §4): Thumbnail 150, Small 300,
// Medium 1024 and Large at the native width, never upscaled, heights rounded down, each in jpg,
// png and webp. A file is rendered to a temporary name and renamed, so a reader
// never sees half a file; one lock per rendition makes concurrent first requests render it once.
//
// Pixel bombs: an image whose header says more than `maximumPixels` (width × height) is refused
// before any decoding (the header is all libvips reads to measure it), and libvips reads the
// native sequentially (shrink-on-load). `oceq serve` makes first-time renditions on its slow pool
// (`DeliveryRouter.handleDeferringRenditions`), never on a request thread.
import CVips
import FoundationEssentials
import Glibc
import OCEQCore

/// A rendition engine over libvips with an on-disk cache.
public final class VipsRenditions: RenditionSource, RenditionCache, Sendable {
    let directory: String
    /// The largest image rendered, in pixels (width × height from its header).
    let maximumPixels: Int
    /// 100 megapixels (10 000 × 10 000): above any camera's photos; a 20 000 × 20 000 PNG is refused.
    public static let defaultMaximumPixels = 100_000_000
    private struct State {
        /// One lock per rendition path, so concurrent first requests render it once.
        var keyLocks: [String: Locked<Void>] = [:]
        var probes: [String: (width: Int, height: Int)?] = [:]
        /// Renditions known to be on disk, by item id, name and format.
        var made: [String: BinaryFile] = [:]
        /// The same, by the request's own words when they are the canonical ones (`Medium`, `jpg` or
        /// none): a repeated request is answered with one lookup, without validating or building
        /// names, or reading the item from the index (`DeliveryRouter.assets`).
        var answered: [Asked: MadeRendition] = [:]
    }
    private let state = Locked(State())

    private struct Asked: Hashable {
        var id: String
        var name: String
        var format: String?
    }

    /// An engine caching under `directory` (created when needed). libvips is opened and started on the first
    /// image it measures, not here, so that a process that serves no rendition never loads it.
    public init(directory: String, maximumPixels: Int = VipsRenditions.defaultMaximumPixels) {
        self.directory = directory
        self.maximumPixels = maximumPixels
    }

    public func made(id: String, name: String, format: String?) -> MadeRendition? {
        state.withLock { $0.answered[Asked(id: id, name: name, format: format)] }
    }

    /// Whether libvips could be opened and started (tried once, on first use).
    static let started: Bool = oceq_vips_init() == 0

    /// The native size of an image file, read from its header by libvips (cached); nil if it cannot be decoded.
    public func nativeSize(of path: String) -> (width: Int, height: Int)? {
        if let known = state.withLock({ $0.probes[path] }) { return known }
        guard VipsRenditions.started else { return nil }
        var width: Int32 = 0
        var height: Int32 = 0
        let size: (width: Int, height: Int)? =
            oceq_vips_probe(path, &width, &height) == 0 && width > 0 && height > 0 ? (Int(width), Int(height)) : nil
        state.withLock { $0.probes[path] = size }
        return size
    }

    /// The rendition at its own size (`RenditionSource`).
    public func rendition(of item: ExportItem, name: String, format: String?) throws(APIError) -> BinaryFile {
        try rendition(of: item, name: name, format: format, box: nil)
    }

    /// The rendition, at `box` when the export declares a size for it (never above the native).
    public func rendition(
        of item: ExportItem, name: String, format: String?, box: ImageSize?
    ) throws(APIError)
        -> BinaryFile
    {
        let asked = Asked(id: item.id, name: name, format: format)
        if box == nil, let known = state.withLock({ $0.answered[asked] }) { return known.file }
        let file = try render(item, name: name, format: format, box: box)
        guard box == nil else { return file }
        // Only canonical words are kept, so odd spellings (`mEdIuM`, `JPEG`) cannot grow the table.
        if SystemRendition.all.contains(where: { $0.name == name }),
            format.map({ format in SystemRendition.formats.contains { $0.format == format } }) ?? true,
            let native = item.nativeFile
        {
            let made = MadeRendition(file: file, native: native, exportRoot: item.exportRoot)
            state.withLock { $0.answered[asked] = made }
        }
        return file
    }

    private func render(
        _ item: ExportItem, name: String, format: String?, box: ImageSize?
    ) throws(APIError)
        -> BinaryFile
    {
        guard let native = item.nativeFile, MediaTypes.forFileName(item.name).hasPrefix("image/") else {
            throw .notFound("item \(item.id) is not an image: it has no renditions")
        }
        guard let rendition = SystemRendition.named(name) else {
            let known = SystemRendition.all.map(\.name).joined(separator: ", ")
            throw .notFound("asset \(item.id) has no rendition '\(name)'; it has \(known)")
        }
        let canonical = rendition.name
        var chosen = (format ?? "jpg").lowercased()
        if chosen == "jpeg" { chosen = "jpg" }
        guard SystemRendition.formats.contains(where: { $0.format == chosen }) else {
            let known = SystemRendition.formats.map(\.format).joined(separator: ", ")
            throw .notFound("rendition \(canonical) of \(item.id) has no format '\(format ?? "")'; it has \(known)")
        }
        if box == nil, let file = Self.nativeFile(of: item, native: native, rendition: rendition, format: chosen) {
            return file
        }
        let boxKey = box.map { "\u{1F}\($0.width)x\($0.height)" } ?? ""
        let key = "\(item.id)\u{1F}\(canonical)\u{1F}\(chosen)\(boxKey)"
        if let made = state.withLock({ $0.made[key] }) { return made }
        guard VipsRenditions.started else {
            throw .notFound("rendition \(canonical) of \(item.id) is not available: libvips cannot be started")
        }
        guard let measured = nativeSize(of: native) else {
            throw .notFound("asset \(item.id) cannot be decoded as an image, so it has no renditions")
        }
        guard measured.width.multipliedReportingOverflow(by: measured.height).partialValue <= maximumPixels,
            measured.width <= maximumPixels, measured.height <= maximumPixels
        else {
            throw APIError(
                status: 422,
                detail: "asset \(item.id) is \(measured.width) × \(measured.height) pixels, more than the "
                    + "\(maximumPixels) this server renders (--max-image-pixels); its native file is served as is")
        }
        let nativePixels = ImageSize(width: measured.width, height: measured.height)
        let size = box.map { Self.fit($0, in: nativePixels) } ?? rendition.size(forNative: nativePixels)
        let folder = "\(directory)/\(VipsRenditions.safe(item.id))"
        let path = "\(folder)/\(canonical)-\(size.width)x\(size.height).\(chosen)"
        let baseName = PathText.deletingExtension(of: item.name)
        let file = BinaryFile(
            path: path, mimeType: MediaTypes.forFileName("x.\(chosen)"), fileName: "\(baseName).\(chosen)")
        if access(path, F_OK) == 0 { return remember(file, as: key) }

        return try lockFor(path).withLock { _ throws(APIError) in
            try renderLocked(
                file, as: key, native: native, size: size, folder: folder, format: chosen, name: canonical,
                id: item.id)
        }
    }

    /// The rest of `render`, under the rendition's own lock: checks again, then renders to a temporary
    /// name and renames it to `file.path`.
    private func renderLocked(
        _ file: BinaryFile, as key: String, native: String, size: ImageSize, folder: String, format chosen: String,
        name canonical: String, id: String
    ) throws(APIError) -> BinaryFile {
        let path = file.path
        if access(path, F_OK) == 0 { return remember(file, as: key) }
        // Modes given explicitly (FileSystem): libarchive zeroes the umask for a moment while it extracts.
        try? FileSystem.makeDirectories(folder)
        let temporary = "\(folder)/.\(UUID().uuidString).\(chosen)"
        let options = chosen == "png" ? "[compression=6,strip]" : "[Q=80,strip]"
        var error = [CChar](repeating: 0, count: 512)
        let failed = oceq_vips_render(
            native, Int32(size.width), Int32(size.height), temporary + options, &error, error.count)
        guard failed == 0 else {
            unlink(temporary)
            let text = String(decoding: error.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = text.split(separator: "\n").first.map(String.init) ?? "unknown error"
            throw .notFound("rendition \(canonical) of \(id) could not be made: \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw APIError(status: 500, detail: "the rendition cache at \(directory) is not writable")
        }
        return remember(file, as: key)
    }

    /// The native file itself when the rendition asked needs no resizing and is in the native's
    /// format (`SystemRendition.isNativeFile`, the test the shaper uses to advertise the native's
    /// byte size): re-encoding it would serve other, usually larger, bytes than advertised.
    static func nativeFile(
        of item: ExportItem, native: String, rendition: SystemRendition, format: String
    )
        -> BinaryFile?
    {
        guard let pixels = item.imageSize else { return nil }
        let mimeType = DeliveryShaper.prepare(item).mimeType
        guard rendition.isNativeFile(native: pixels, format: format, nativeMimeType: mimeType) else { return nil }
        return BinaryFile(path: native, mimeType: mimeType, fileName: item.name)
    }

    /// A declared rendition box (the export's `uithumbnail` size), never larger than the native.
    static func fit(_ box: ImageSize, in native: ImageSize) -> ImageSize {
        box.width <= native.width && box.height <= native.height ? box : native
    }

    /// Notes a rendition file that exists, so later requests skip the checks (files are never changed).
    private func remember(_ file: BinaryFile, as key: String) -> BinaryFile {
        state.withLock { $0.made[key] = file }
        return file
    }

    private func lockFor(_ key: String) -> Locked<Void> {
        state.withLock { state in
            if let existing = state.keyLocks[key] { return existing }
            let made = Locked(())
            state.keyLocks[key] = made
            return made
        }
    }

    /// An id made safe as a folder name (ids are opaque strings from the export).
    static func safe(_ id: String) -> String {
        let cleaned = id.unicodeScalars.map {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "_"
        }
        return String(cleaned.prefix(80)) + "-" + String(EntityTag.fnv1a(Array(id.utf8)), radix: 16)
    }
}
