// The one place that knows where oceq keeps its files, by the XDG Base Directory Specification:
// `$XDG_CONFIG_HOME`, `$XDG_STATE_HOME` and `$XDG_CACHE_HOME` when they are absolute paths (the spec
// says a relative or empty one is ignored), else `$HOME/.config`, `$HOME/.local/state` and
// `$HOME/.cache`. A HOME that is unset, empty or relative gives no path at all (never `/.config/...`):
// the caller says what it does without one (no credentials file there, no history file, a profile
// error naming the variables, a cache in the temporary folder).

import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// oceq's files under the XDG base directories of one environment.
package struct XDGPaths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME`, else `$HOME/.config`; nil without either.
    package let configHome: String?
    /// `$XDG_STATE_HOME`, else `$HOME/.local/state`; nil without either.
    package let stateHome: String?
    /// `$XDG_CACHE_HOME`, else `$HOME/.cache`; nil without either.
    package let cacheHome: String?
    /// `$HOME` when it is an absolute path.
    package let home: String?

    /// The folder `~` stands for: `$HOME` when it is an absolute path, else the account's home directory (what
    /// Foundation's `NSHomeDirectory()` answered).
    package static func homeFolder() -> String {
        current().home ?? FileManager.default.homeDirectoryForCurrentUser.path
    }

    /// `path` with a leading `~` (alone or before a `/`) standing for `home` (`homeFolder()`), as a shell
    /// expands it; `~user` and a `~` anywhere else stay as typed.
    package static func expandingTilde(_ path: String, home: @autoclosure () -> String = homeFolder()) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return path == "~" ? home() : PathText.joined(home(), String(path.dropFirst(2)))
    }

    /// A path a user typed, made absolute: `~` expanded (`expandingTilde`), a relative path taken under
    /// `directory`, and the result standardized lexically (`PathText.standardized`: links are not resolved).
    /// A relative `directory` gives a path relative to the same place.
    package static func resolve(
        _ path: String, in directory: String, home: @autoclosure () -> String = homeFolder()
    ) -> String {
        let expanded = expandingTilde(path, home: home())
        return PathText.standardized(expanded.hasPrefix("/") ? expanded : PathText.joined(directory, expanded))
    }

    /// The variables that decide the paths (what `current()` reads from the process).
    package static let variables = ["HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"]

    /// The paths for `environment` (only `HOME` and the `XDG_*_HOME` variables are read).
    package init(environment: [String: String]) {
        let home = environment["HOME"].flatMap(Self.absolute)
        func base(_ variable: String, _ underHome: String) -> String? {
            if let value = environment[variable].flatMap(Self.absolute) { return value }
            return home.map { PathText.joined($0, underHome) }
        }
        self.home = home
        configHome = base("XDG_CONFIG_HOME", ".config")
        stateHome = base("XDG_STATE_HOME", ".local/state")
        cacheHome = base("XDG_CACHE_HOME", ".cache")
    }

    /// The paths for this process's environment.
    package static func current() -> XDGPaths {
        var environment: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return XDGPaths(environment: environment)
    }

    /// `CONFIG/oceq`: credentials, profiles and plugins.
    package var configFolder: String? { configHome.map { PathText.joined($0, "oceq") } }
    /// `CONFIG/oceq/credentials.json`.
    package var credentialsFile: String? { configFolder.map { PathText.joined($0, "credentials.json") } }
    /// `CONFIG/oceq/profiles.json`.
    package var profilesFile: String? { configFolder.map { PathText.joined($0, "profiles.json") } }
    /// `CONFIG/oceq/plugins`.
    package var pluginsFolder: String? { configFolder.map { PathText.joined($0, "plugins") } }
    /// `STATE/oceq/history`.
    package var historyFile: String? { stateHome.map { PathText.joined($0, "oceq/history") } }
    /// `CACHE/oceq`: extracted export zips, indexes and renditions.
    package var cacheFolder: String? { cacheHome.map { PathText.joined($0, "oceq") } }

    /// `cacheFolder`, else (no home) `oceq-<uid>` in `$TMPDIR` (else `/tmp`): a cache is kept between
    /// runs on purpose, so it is named by the user rather than made fresh.
    package var cacheFolderOrTemporary: String {
        if let cacheFolder { return cacheFolder }
        return PathText.joined(Self.temporaryFolder(), "oceq-\(getuid())")
    }

    /// The folder for temporary files: `$TMPDIR` when it is an absolute path, else `/tmp`.
    package static func temporaryFolder() -> String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap(absolute) ?? "/tmp"
    }

    /// `value` without a trailing `/` when it is an absolute path; nil when empty or relative.
    static func absolute(_ value: String) -> String? {
        guard value.hasPrefix("/") else { return nil }
        var trimmed = Substring(value)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

}
