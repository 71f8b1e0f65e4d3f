import Foundation
import OCEQTestSupport
import Testing

@testable import OCEQShell

/// Files for the line-editing tests.
enum LineEditingFiles {
    /// A fresh directory under the system's temporary one, removed by `remove`.
    static func temporaryDirectory() throws -> String {
        TestTemporary.make("oceq-history")
    }

    static func remove(_ path: String) {
        TestTemporary.remove(path)
    }

    static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func text(of path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }
}

@Suite("History")
struct HistoryTests {
    @Test("the path follows XDG_STATE_HOME, else HOME, else none")
    func xdgPath() {
        #expect(History.defaultPath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/oceq/history")
        #expect(History.defaultPath(environment: ["XDG_STATE_HOME": "/s/", "HOME": "/h"]) == "/s/oceq/history")
        #expect(History.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/state/oceq/history")
        // The XDG spec says a relative path is ignored.
        #expect(
            History.defaultPath(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/oceq/history")
        #expect(
            History.defaultPath(environment: ["XDG_STATE_HOME": "", "HOME": "/h"]) == "/h/.local/state/oceq/history")
        #expect(History.defaultPath(environment: [:]) == nil)
    }

    @Test("consecutive duplicates and blank entries are dropped; later repeats are kept")
    func duplicates() {
        let history = History(path: nil)
        #expect(history.add("count"))
        #expect(!history.add("count"))
        #expect(!history.add("count\n"))
        #expect(!history.add("   \n"))
        #expect(history.add("show types"))
        #expect(history.add("count"))
        #expect(history.entries == ["count", "show types", "count"])
    }

    @Test("the history keeps at most capacity entries, in memory and on disk")
    func cap() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let path = directory + "/oceq/history"
        let history = History(path: path, capacity: 3)
        try history.load()
        for index in 1...10 { history.add("q\(index)") }
        #expect(history.entries == ["q8", "q9", "q10"])
        #expect(history.lastError == nil)

        let again = History(path: path, capacity: 3)
        try again.load()
        #expect(again.entries == ["q8", "q9", "q10"])
        // The file holds the newest entries, in libedit's format.
        #expect(try LineEditingFiles.text(of: path) == "_HiStOrY_V2_\nq8\nq9\nq10\n")
    }

    @Test("every add leaves the file at most capacity entries long, in libedit's format, nothing beside it")
    func compaction() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let path = directory + "/history"
        let history = History(path: path, capacity: 5)
        try history.load()
        for index in 1...40 {
            history.add("q\(index)")
            let text = try LineEditingFiles.text(of: path)
            #expect(text.hasPrefix("_HiStOrY_V2_\n"))
            #expect(text.split(separator: "\n").count - 1 <= 5)
        }
        #expect(history.entries == ["q36", "q37", "q38", "q39", "q40"])
        // Saves went through a temporary file renamed over the history: nothing is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["history"])
    }

    @Test("two sessions appending to one file lose nothing")
    func twoSessions() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let path = directory + "/history"
        let first = History(path: path)
        let second = History(path: path)
        try first.load()
        try second.load()
        first.add("from first")
        second.add("from second")
        first.add("first again")
        let third = History(path: path)
        try third.load()
        #expect(third.entries == ["from first", "from second", "first again"])
    }

    @Test("multi-line statements and backslashes come back whole")
    func multiLineRoundTrip() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let path = directory + "/oceq/history"
        let statements = [
            "select title\nfrom type=Article\nwhere title ~ \"a\\nb\"",
            "search \"back\\\\slash\\\\\"",
            "crlf\r\nline",
            "ünïcödé ☃ 漢字",
            "ends with backslash \\",
        ]
        let history = History(path: path)
        try history.load()
        for statement in statements { #expect(history.add(statement)) }

        let text = try LineEditingFiles.text(of: path)
        #expect(text.split(separator: "\n").count == statements.count + 1)

        let again = History(path: path)
        try again.load()
        #expect(again.entries == statements)
    }

    @Test("the earlier format's escapes are undone; unknown escapes are kept")
    func escaping() {
        #expect(History.decode("a\\nb") == "a\nb")
        #expect(History.decode("a\\\\nb") == "a\\nb")
        #expect(History.decode("x\\r") == "x\r")
        #expect(History.decode("a\\tb") == "a\\tb")
        #expect(History.decode("trailing\\") == "trailing\\")
    }

    @Test("entries that carry a secret are neither kept nor written")
    func secretsNotWritten() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let path = directory + "/oceq/history"
        let history = History(path: path)
        try history.load()
        #expect(history.add("count type=Article"))
        #expect(!history.add("connect https://example.com 0123456789abcdef"))
        #expect(!history.add("set token 0123456789abcdef"))
        #expect(!history.add("select *\nfrom x where url = \"https://h/?channelToken=abc\""))
        #expect(history.entries == ["count type=Article"])
        let text = try LineEditingFiles.text(of: path)
        #expect(!text.contains("0123456789abcdef"))
        #expect(!text.contains("channelToken"))
    }

    @Test("loading drops secrets and duplicates an earlier-format file holds, and rewrites it in libedit's")
    func loadTidies() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let path = directory + "/history"
        let old = "a\na\nset bearer xyz\nb\\nc\n\nb\\nc\nd\n"
        try old.write(toFile: path, atomically: false, encoding: .utf8)
        let history = History(path: path)
        try history.load()
        #expect(history.entries == ["a", "b\nc", "d"])
        #expect(try LineEditingFiles.text(of: path).hasPrefix("_HiStOrY_V2_\na\n"))
        let again = History(path: path)
        try again.load()
        #expect(again.entries == ["a", "b\nc", "d"])
        #expect(try LineEditingFiles.mode(of: path) == 0o600)
    }

    @Test("the directory is made 0700 and the file 0600")
    func permissions() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let state = directory + "/state"
        let path = state + "/oceq/history"
        let history = History(path: path)
        try history.load()
        #expect(try LineEditingFiles.mode(of: state + "/oceq") == 0o700)
        #expect(try LineEditingFiles.mode(of: state) == 0o700)
        #expect(!FileManager.default.fileExists(atPath: path))
        history.add("count")
        #expect(try LineEditingFiles.mode(of: path) == 0o600)

        // A file made readable by others is tightened when loaded.
        chmod(path, 0o644)
        try History(path: path).load()
        #expect(try LineEditingFiles.mode(of: path) == 0o600)
    }

    @Test("a missing file is an empty history; an unwritable place is reported, and memory goes on")
    func failures() throws {
        let directory = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(directory) }
        let blocker = directory + "/file"
        try "x".write(toFile: blocker, atomically: false, encoding: .utf8)
        let history = History(path: blocker + "/oceq/history")
        #expect(throws: HistoryError.self) { try history.load() }
        #expect(history.add("count"))
        #expect(history.entries == ["count"])
        #expect(history.lastError != nil)
    }
}

@Suite("The secret filter")
struct SecretFilterTests {
    @Test(
        "lines with a token or bearer are secret",
        arguments: [
            "connect https://x.example.com abcdef",
            "connect prod",
            "  Connect prod",
            "\\connect prod",
            ".connect prod",
            "connect",
            "set token abc",
            "SET TOKEN abc",
            "set   bearer abc",
            "set token=abc",
            "set channelToken abc",
            "count\nset token abc",
            "select * where x = 1\nconnect h t",
            "echo x; connect https://x.example.com abcdef",
            "count;connect prod",
            "get /items?channelToken=abc",
            "get /items?CHANNELTOKEN=abc",
            "header Authorization: Bearer eyJhbGciOi",
            "curl -H 'authorization: bearer\tabc'",
            "run script.oceq --token abc",
            "run script.oceq --bearer abc",
            "!env OCEQ_BEARER=abc oceq",
            "!env OCEQ_CHANNEL_TOKEN=abc oceq",
        ])
    func secret(_ entry: String) {
        #expect(History.carriesSecret(entry))
    }

    @Test(
        "ordinary statements are not",
        arguments: [
            "count type=Article",
            "select title from type=Article where title ~ \"token\"",
            "set format json",
            "set timing on",
            "show types",
            "search bearer",
            "reconnect",
            "fields=all token",
            "help connect",
            "",
        ])
    func notSecret(_ entry: String) {
        #expect(!History.carriesSecret(entry))
    }
}
