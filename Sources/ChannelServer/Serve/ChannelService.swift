import CSystem
import Dispatch
import FoundationEssentials
import OCEQCore

/// A loaded channel ready to serve: content read, index built (or reopened), router made.
public struct ChannelService: Sendable {
    public var content: ChannelContent
    public var index: ChannelIndex
    public var router: DeliveryRouter
    /// The channel token in force and where it came from (`--token`, `channel.json`, or generated).
    public var token: Secret
    public var tokenSource: TokenSource
    /// Seconds spent loading the export and building (or opening) the index.
    public var loadSeconds: Double
    public var indexSeconds: Double
    /// After a restart from the cache: the full check of the export (`ExportStamp`) to run once
    /// serving has started; nil after a build (which read every file).
    public var exportCheck: ExportCheck?

    /// Where the channel token came from.
    public enum TokenSource: String, Sendable {
        case option = "--token"
        case channelFile = "channel.json"
        case generated = "generated"
    }

    /// Reads the exports named in `options` and builds the index, or, when the export's stamp
    /// (`ExportStamp`: every file's size, times and inode) matches a cached index, reopens that
    /// index without reading any item file. Either way the items are then read from the index
    /// file's item store, not held in memory. Throws `ExportError` for unusable paths, and for
    /// skipped items when `strict`.
    public static func load(_ options: ServeOptions) throws -> ChannelService {
        let cache = options.cacheDirectory ?? defaultCacheDirectory()
        try prepareCache(cache)
        let started = DispatchTime.now().uptimeNanoseconds
        var loadOptions = ExportLoadOptions(strict: options.strict, cacheDirectory: cache + "/exports")
        loadOptions.zipLimits = options.zipLimits
        loadOptions.maximumItemFileBytes = options.maximumItemFileBytes
        let loader = ExportLoader(options: loadOptions)
        let located = try loader.locate(paths: options.paths)
        let indexFolder = cache + "/index"
        var clock = PhaseClock("start:")
        // Taken before any file is read: a file changed while loading changes the next stamp.
        let salt = [IndexSchema.version, String(options.maximumItemFileBytes)]
        let stamp = ExportStamp.compute(roots: located.roots, salt: salt, depth: .listing)
        clock.mark("export listing stamp")
        var content: ChannelContent
        let index: ChannelIndex
        let loaded: UInt64
        var check: ExportCheck?
        if let stamp, let reopened = reopen(stamp: stamp, roots: located.roots, in: indexFolder) {
            (content, index) = reopened.channel
            check = ExportCheck(
                roots: located.roots, salt: salt, expected: reopened.fullStamp,
                stampFile: indexFolder + "/stamp-" + stamp)
            loaded = DispatchTime.now().uptimeNanoseconds
            if options.strict && !content.issues.isEmpty { throw ExportError.strict(issues: content.issues) }
        } else {
            let full = stamp == nil ? nil : ExportStamp.compute(roots: located.roots, salt: salt, depth: .full)
            clock.mark("export full stamp")
            let codec = ItemCodec(roots: located.roots)
            // Begun once the items' order is known: a build stores the items the loader finishes
            // while it finishes later ones (`PendingIndex`).
            var pending: Result<PendingIndex, any Error>?
            content = try loader.load(located) { fingerprint, items in
                pending = Result {
                    try PendingIndex(fingerprint: fingerprint, items: items, cacheDirectory: indexFolder, codec: codec)
                }
                return try? pending?.get().finished
            }
            loaded = DispatchTime.now().uptimeNanoseconds
            let items = content.items.inMemory ?? Array(content.items)
            guard let begun = try pending?.get() else { preconditionFailure("the loader names the merged items") }
            index = try ChannelIndex(
                pending: begun, items: items, fingerprint: content.fingerprint,
                parts: codec.encodeParts(of: content), fieldKinds: content.fieldKinds, ordinals: content.ordinals)
            content.fieldKinds = nil
            content.ordinals = nil
            clock.mark("index")
            content.items = ItemList(store: index.itemStore(roots: content.roots))
            if let stamp, let full {
                remember(stamp: stamp, record: content.fingerprint + "\n" + full, in: indexFolder)
            }
        }
        let indexed = DispatchTime.now().uptimeNanoseconds
        // Loading and indexing free far more than they keep; hand the pages back to the system.
        oceq_release_free_memory()
        let (token, source) = resolveToken(options)
        var configuration = ServerConfiguration(
            channelToken: token.revealedForRequest, bearer: options.bearer?.revealedForRequest,
            responseCacheBytes: options.responseCacheMiB << 20)
        configuration.cors = CORSPolicy(origins: options.corsOrigins)
        let renditions = VipsRenditions(
            directory: cache + "/renditions/" + content.fingerprint, maximumPixels: options.maximumImagePixels)
        let router = DeliveryRouter(
            content: content, index: index, configuration: configuration, renditions: renditions)
        return ChannelService(
            content: content, index: index, router: router, token: token, tokenSource: source,
            loadSeconds: Double(loaded - started) / 1e9, indexSeconds: Double(indexed - loaded) / 1e9,
            exportCheck: check)
    }

    /// The channel of a cached index named by `stamp`'s file (`fingerprint LF full-stamp`) and the
    /// full stamp it was built with, or nil when there is none usable.
    static func reopen(
        stamp: String, roots: [String], in folder: String
    ) -> (channel: (ChannelContent, ChannelIndex), fullStamp: String)? {
        guard let bytes = try? FileSystem.read(folder + "/stamp-" + stamp, limit: 4096) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == 2 else { return nil }
        let fingerprint = lines[0]
        guard !fingerprint.isEmpty, let index = ChannelIndex(reopening: fingerprint, cacheDirectory: folder) else {
            return nil
        }
        let store = index.itemStore(roots: roots)
        var content = ChannelContent(fingerprint: fingerprint, roots: roots)
        content.items = ItemList(store: store)
        guard store.restoreParts(into: &content) else { return nil }
        return ((content, index), lines[1])
    }

    /// Records what the export with listing stamp `stamp` was built into (written whole, then
    /// renamed; a failure only costs a rebuild next time).
    static func remember(stamp: String, record: String, in folder: String) {
        let path = folder + "/stamp-" + stamp
        let part = path + ".\(getpid()).part"
        do {
            try FileSystem.write(Array(record.utf8), to: part)
            try FileSystem.rename(part, path)
        } catch {
            FileSystem.remove(part)
        }
    }

    /// Checks the cache folder before anything is written in it: the user's own, and its
    /// `exports/`, `index/` and `renditions/` folders real folders, not links to somewhere else.
    static func prepareCache(_ cache: String) throws(ExportError) {
        do {
            let root = try ContainedDirectory(privateRoot: cache)
            for folder in ["exports", "index", "renditions"] { _ = try root.folder(folder, create: true) }
        } catch {
            throw ExportError.cacheUnusable(path: error.path, reason: error.reason)
        }
    }

    /// `--token`, else `channelToken` of a `channel.json` in (or beside) the first export, else a new one.
    static func resolveToken(_ options: ServeOptions) -> (Secret, TokenSource) {
        if let token = options.token { return (token, .option) }
        for path in options.paths {
            let folder = URL(fileURLWithPath: path)
            for candidate in [
                folder.appendingPathComponent("channel.json"),
                folder.deletingLastPathComponent().appendingPathComponent("channel.json"),
            ] {
                if let data = FileManager.default.contents(atPath: candidate.path),
                    let json = try? JSON.parse(Array(data)),
                    let token = json["channelToken"]?.stringValue, !token.isEmpty
                {
                    return (Secret(token), .channelFile)
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<16).map { _ in String(cFormat: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return (Secret(token), .generated)
    }

    /// `$XDG_CACHE_HOME/oceq`, else `~/.cache/oceq`, else (no home) `$TMPDIR/oceq-<uid>`
    /// (`XDGPaths.cacheFolderOrTemporary`).
    public static func defaultCacheDirectory() -> String {
        XDGPaths.current().cacheFolderOrTemporary
    }
}
