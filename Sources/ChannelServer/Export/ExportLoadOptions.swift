import OCEQCore

/// How exports are read.
public struct ExportLoadOptions: Sendable {
    /// Turn every issue (a skipped file, a dangling reference, ...) into an error.
    public var strict: Bool
    /// Where zips are extracted (created when missing); each zip gets a subfolder named by a hash
    /// of its path, size and modification time, reused on the next start.
    public var cacheDirectory: String
    /// What a zip may expand to; extraction stops, and leaves nothing, past any limit.
    public var zipLimits = ZipLimits()
    /// Item and other JSON files larger than this are skipped with an issue, unread.
    public var maximumItemFileBytes = ExportLoadOptions.defaultMaximumItemFileBytes

    /// 64 MiB: an item's JSON is a few kilobytes; the largest seen in real exports are under 2 MiB.
    public static let defaultMaximumItemFileBytes = 64 << 20

    /// Options reading exports, extracting zips under `cacheDirectory`.
    public init(strict: Bool = false, cacheDirectory: String = ExportLoadOptions.defaultCacheDirectory) {
        self.strict = strict
        self.cacheDirectory = cacheDirectory
    }

    /// `$XDG_CACHE_HOME/oceq/exports`, else `~/.cache/oceq/exports`, else `$TMPDIR/oceq-<uid>/exports`.
    public static var defaultCacheDirectory: String {
        XDGPaths.current().cacheFolderOrTemporary + "/exports"
    }
}
