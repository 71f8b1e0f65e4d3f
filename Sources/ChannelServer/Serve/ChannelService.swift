import CSystem
import Foundation
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

    /// Where the channel token came from.
    public enum TokenSource: String, Sendable {
        case option = "--token"
        case channelFile = "channel.json"
        case generated = "generated"
    }

    /// Reads the exports named in `options` and builds the index. Throws `ExportError` for
    /// unusable paths, and for skipped items when `strict`.
    public static func load(_ options: ServeOptions) throws -> ChannelService {
        let cache = options.cacheDirectory ?? defaultCacheDirectory()
        try prepareCache(cache)
        let started = DispatchTime.now().uptimeNanoseconds
        var loadOptions = ExportLoadOptions(strict: options.strict, cacheDirectory: cache + "/exports")
        loadOptions.zipLimits = options.zipLimits
        loadOptions.maximumItemFileBytes = options.maximumItemFileBytes
        let content = try ExportLoader(options: loadOptions).load(paths: options.paths)
        let loaded = DispatchTime.now().uptimeNanoseconds
        let index = try ChannelIndex(
            items: content.items, fingerprint: content.fingerprint, cacheDirectory: cache + "/index")
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
            loadSeconds: Double(loaded - started) / 1e9, indexSeconds: Double(indexed - loaded) / 1e9)
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
        let token = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        return (Secret(token), .generated)
    }

    /// `$XDG_CACHE_HOME/oceq`, else `~/.cache/oceq`, else (no home) `$TMPDIR/oceq-<uid>`
    /// (`XDGPaths.cacheFolderOrTemporary`).
    public static func defaultCacheDirectory() -> String {
        XDGPaths.current().cacheFolderOrTemporary
    }
}
