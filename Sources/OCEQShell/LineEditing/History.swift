import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The statement history: entries in memory, oldest first, mirrored to a file that survives sessions.
///
/// The file is `$XDG_STATE_HOME/oceq/history` (default `~/.local/state/oceq/history`), its directory mode 0700
/// and the file mode 0600. Each entry is one line, with backslash, newline and carriage return escaped as `\\`,
/// `\n` and `\r`, so a multi-line statement comes back whole. The first line is the header `_oceq_history_v1_`.
///
/// - Consecutive duplicates are dropped, and the history keeps at most `capacity` entries.
/// - Entries that carry a token or bearer (`History.carriesSecret`) are never written, nor kept here.
/// - `add` appends one line to the file at once (`O_APPEND`, one `write`), so a crash loses nothing written
///   before it. The file is only rewritten, to a temporary file renamed over it, when loading finds it
///   untidy (too long, duplicates, secrets, no header) or when appends have made it twice `capacity` long.
public final class History {
    /// How many entries are kept unless told otherwise.
    public static let defaultCapacity = 2000
    /// The first line of the file.
    static let header = "_oceq_history_v1_"

    /// The file, or nil for a history kept in memory only.
    public let path: String?
    /// The most entries kept; older ones are forgotten.
    public let capacity: Int
    /// The entries, oldest first.
    public private(set) var entries: [String] = []
    /// The last problem writing the file, if any; the history goes on in memory.
    public private(set) var lastError: String?
    /// How many entry lines the file holds, to know when appends call for a rewrite.
    private var linesInFile = 0

    /// A history backed by `path` (nil: memory only). Nothing is read until `load()`.
    public init(path: String?, capacity: Int = History.defaultCapacity) {
        self.path = path
        self.capacity = max(1, capacity)
    }

    /// The history file's path from the environment: `$XDG_STATE_HOME/oceq/history` when that variable is an
    /// absolute path, else `$HOME/.local/state/oceq/history`; nil without either.
    public static func defaultPath(environment: [String: String]) -> String? {
        XDGPaths(environment: environment).historyFile
    }

    /// `defaultPath(environment:)` for this process's environment.
    public static func defaultPath() -> String? {
        XDGPaths.current().historyFile
    }

    // MARK: - The secret filter

    /// Whether `entry` carries a credential and so must never reach the history file: any of its lines starts
    /// with `connect`, or holds `set token` / `set bearer` (any spacing, any case), or the entry contains
    /// `channelToken=`, `Bearer `, `--token`, `--bearer`, `OCEQ_CHANNEL_TOKEN` or `OCEQ_BEARER` (any case).
    public static func carriesSecret(_ entry: String) -> Bool {
        let lower = entry.lowercased()
        for marker in [
            "channeltoken=", "bearer ", "bearer\t", "--token", "--bearer", "oceq_channel_token", "oceq_bearer",
        ]
        where lower.contains(marker) {
            return true
        }
        for line in lower.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: \.isWhitespace)
            guard let first = words.first else { continue }
            // `connect`, also behind a command sigil such as `\connect` or `.connect`.
            if first.drop(while: { "\\.:/!".contains($0) }).hasPrefix("connect") { return true }
            for (index, word) in words.enumerated() where word == "set" && index + 1 < words.count {
                let name = words[index + 1]
                if name.hasPrefix("token") || name.hasPrefix("bearer") || name.hasPrefix("channeltoken") {
                    return true
                }
            }
        }
        return false
    }

    // MARK: - Entries

    /// Trims the trailing newlines and spaces a statement ends with; nil when nothing is left.
    static func normalized(_ entry: String) -> String? {
        var text = Substring(entry)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text.isEmpty ? nil : String(text)
    }

    /// Records a statement: kept and appended to the file unless it is empty, repeats the previous entry, or
    /// carries a secret. Returns whether it was kept. A failure to write is noted in `lastError`, not thrown.
    @discardableResult
    public func add(_ entry: String) -> Bool {
        guard let entry = History.normalized(entry), entry != entries.last, !History.carriesSecret(entry) else {
            return false
        }
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        guard path != nil else { return true }
        do {
            if linesInFile + 1 >= 2 * capacity {
                try rewrite()
            } else {
                try append(entry)
            }
        } catch {
            lastError = error.message
        }
        return true
    }

    // MARK: - The file

    /// Reads the file (a missing one is an empty history), creating its directory. Rewrites the file when it
    /// holds more than `capacity` entries, duplicates, secrets or no header, and makes it mode 0600.
    public func load() throws(HistoryError) {
        guard let path else { return }
        try History.makeDirectory(History.directory(of: path))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT {
                entries = []
                linesInFile = 0
                return
            }
            throw HistoryError("cannot read \(path): \(History.describe(code))")
        }
        let bytes: [UInt8]
        do {
            defer { close(fd) }
            _ = fchmod(fd, 0o600)  // best effort: the file may belong to someone else
            bytes = try History.readAll(fd, path: path)
        }
        let (loaded, lineCount, tidy) = History.decodeFile(bytes, capacity: capacity)
        entries = loaded
        linesInFile = lineCount
        if !tidy { try rewrite() }
    }

    /// Parses a history file: its entries (the newest `capacity` of them, secrets and consecutive duplicates
    /// dropped), how many entry lines it holds, and whether it was already tidy.
    static func decodeFile(_ bytes: [UInt8], capacity: Int) -> (entries: [String], lines: Int, tidy: Bool) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        var tidy = true
        if let first = lines.first, String(decoding: first, as: UTF8.self) == header {
            lines.removeFirst()
        } else if !bytes.isEmpty {
            tidy = false
        }
        var entries: [String] = []
        for line in lines {
            let entry = decode(String(decoding: line, as: UTF8.self))
            guard let entry = normalized(entry), entry != entries.last, !carriesSecret(entry) else {
                tidy = false
                continue
            }
            entries.append(entry)
        }
        if entries.count > capacity {
            entries.removeFirst(entries.count - capacity)
            tidy = false
        }
        return (entries, lines.count, tidy)
    }

    /// Escapes one entry onto one line: `\` as `\\`, newline as `\n`, carriage return as `\r`.
    static func encode(_ entry: String) -> String {
        var out = ""
        out.reserveCapacity(entry.utf8.count)
        for scalar in entry.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Undoes `encode`; an unknown escape is kept as it stands.
    static func decode(_ line: String) -> String {
        var out = ""
        var escaped = false
        for scalar in line.unicodeScalars {
            if escaped {
                switch scalar {
                case "n": out += "\n"
                case "r": out += "\r"
                case "\\": out += "\\"
                default:
                    out += "\\"
                    out.unicodeScalars.append(scalar)
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if escaped { out += "\\" }
        return out
    }

    /// Appends one entry line (and the header first when the file is new) in one write.
    private func append(_ entry: String) throws(HistoryError) {
        guard let path else { return }
        try History.makeDirectory(History.directory(of: path))
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HistoryError("cannot write \(path): \(History.describe(errno))") }
        defer { close(fd) }
        var info = stat()
        var text = History.encode(entry) + "\n"
        if fstat(fd, &info) == 0, info.st_size == 0 {
            text = History.header + "\n" + text
            linesInFile = 0
        }
        try History.writeAll(fd, Array(text.utf8), path: path)
        linesInFile += 1
    }

    /// Writes all entries to a temporary file beside the history, flushes it, and renames it over the history,
    /// so that a crash leaves either the old file or the new one.
    private func rewrite() throws(HistoryError) {
        guard let path else { return }
        let directory = History.directory(of: path)
        try History.makeDirectory(directory)
        let temporary = "\(path).tmp.\(getpid())"
        unlink(temporary)  // a leftover of a crashed process with the same id
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HistoryError("cannot write \(temporary): \(History.describe(errno))") }
        var text = History.header + "\n"
        for entry in entries { text += History.encode(entry) + "\n" }
        do throws(HistoryError) {
            defer { close(fd) }
            _ = fchmod(fd, 0o600)
            try History.writeAll(fd, Array(text.utf8), path: temporary)
            guard fsync(fd) == 0 else {
                throw HistoryError("cannot flush \(temporary): \(History.describe(errno))")
            }
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw HistoryError("cannot replace \(path): \(History.describe(code))")
        }
        linesInFile = entries.count
    }

    // MARK: - POSIX helpers

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates `directory` and its missing parents with mode 0700; makes the last one 0700 if it is ours.
    static func makeDirectory(_ directory: String) throws(HistoryError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else { throw HistoryError("\(directory) is not a directory") }
            if info.st_uid == getuid(), info.st_mode & 0o077 != 0 { _ = chmod(directory, 0o700) }
            return
        }
        let parent = self.directory(of: directory)
        if parent != directory { try makeDirectory(parent) }
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw HistoryError("cannot create \(directory): \(describe(errno))")
        }
        _ = chmod(directory, 0o700)
    }

    static func readAll(_ fd: Int32, path: String) throws(HistoryError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw HistoryError("cannot read \(path): \(describe(errno))")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(HistoryError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HistoryError("cannot write \(path): \(describe(errno))")
            }
            offset += count
        }
    }

    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// A problem reading or writing the history file.
public struct HistoryError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
