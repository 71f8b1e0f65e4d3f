// Path arithmetic on text, without touching the file system: what `NSString`'s path methods did for the
// targets oceq links, which use FoundationEssentials only. Paths are POSIX: `/` separates components.

/// Lexical operations on POSIX paths.
package enum PathText {
    /// The folder of `path`: `a/b` gives `a`, `/a` gives `/`, and a path without a folder (`a`, `..`, the
    /// empty path) gives `.`, the working folder, as POSIX `dirname` does (NSString's
    /// `deletingLastPathComponent` answers `` there). Trailing slashes are ignored.
    package static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let head = withoutTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty && trimmed.hasPrefix("/") ? "/" : head
    }

    /// The last component of `path`: `a/b` gives `b`, `/` gives `/` (NSString's `lastPathComponent`).
    package static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `component` under `folder`, with one `/` between them (NSString's `appendingPathComponent`).
    package static func joined(_ folder: String, _ component: String) -> String {
        if folder.isEmpty { return component }
        if component.isEmpty { return folder }
        return withoutTrailingSlashes(folder) + (folder == "/" ? "" : "/")
            + String(component.drop(while: { $0 == "/" }))
    }

    /// `name` without its extension: `a.tar.gz` gives `a.tar`; `.profile`, `..` and `a` stay (NSString's
    /// `deletingPathExtension` on a file name).
    package static func deletingExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), !name[..<dot].allSatisfy({ $0 == "." }),
            !name[name.index(after: dot)...].contains("/"), name[name.index(before: dot)] != "/"
        else { return name }
        return String(name[..<dot])
    }

    /// `path` with `.` components and repeated slashes removed, `..` taken back lexically where a
    /// component precedes it, and no trailing slash (NSString's `standardizingPath`, but lexical: links
    /// are not resolved). A `..` at the root stays at the root.
    package static func standardized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? (path.isEmpty ? "" : ".") : joined
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.last == "/" { text.removeLast() }
        return String(text)
    }
}
