import Glibc

/// How exports are read.
public struct ExportLoadOptions: Sendable {
    /// Turn every issue (a skipped file, a dangling reference, ...) into an error.
    public var strict: Bool
    /// Where zips are extracted (created when missing); each zip gets a subfolder named by a hash
    /// of its path, size and modification time, reused on the next start.
    public var cacheDirectory: String

    public init(strict: Bool = false, cacheDirectory: String = ExportLoadOptions.defaultCacheDirectory) {
        self.strict = strict
        self.cacheDirectory = cacheDirectory
    }

    /// `$XDG_CACHE_HOME/oceq/exports`, else `~/.cache/oceq/exports`, else `/tmp/oceq-<uid>/exports`.
    public static var defaultCacheDirectory: String {
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/oceq/exports" }
        if let home = environment("HOME"), home.hasPrefix("/") { return home + "/.cache/oceq/exports" }
        return "/tmp/oceq-\(getuid())/exports"
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
