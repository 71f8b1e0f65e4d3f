// Temporary folders and files for tests, all under `$TMPDIR` (as Foundation reads it). A test
// removes what it made: `withTemporaryFolder { }`, or `TestTemporary.make` with a `defer` of
// `TestTemporary.remove`. What a whole suite shares (a `static let` cache no test can remove)
// goes under `TestTemporary.perProcess`, one folder removed when the test process exits.
// `Scripts/test` runs the suite with a fresh `TMPDIR` and fails if anything is left in it.

import Foundation

/// Makes and removes the temporary folders of tests.
public enum TestTemporary {
    /// `$TMPDIR` (else `/tmp`), without a trailing slash.
    public static var base: String {
        var path = NSTemporaryDirectory()
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// A fresh path `BASE/LABEL-UUID` plus `suffix`, not created (for a file the test writes).
    public static func path(_ label: String, suffix: String = "") -> String {
        base + "/\(label)-\(UUID().uuidString)" + suffix
    }

    /// Makes a fresh empty folder `BASE/LABEL-UUID` and returns its path.
    public static func make(_ label: String) -> String {
        let folder = path(label)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            settleMode(folder)
        } catch {
            fatalError("cannot make the temporary folder \(folder): \(error)")
        }
        return folder
    }

    /// Removes a folder (with everything in it) or a file; a missing one is fine.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// One folder for this test process, removed when the process exits: the place for caches a
    /// whole suite shares.
    public static let perProcess: String = {
        let folder = make("oceq-tests-\(getpid())")
        atexit { TestTemporary.remove(TestTemporary.perProcess) }
        return folder
    }()

    /// A fresh folder under `perProcess` (removed at exit at the latest).
    public static func shared(_ label: String) -> String {
        let folder = perProcess + "/\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        settleMode(folder)
        return folder
    }

    /// Sets a new folder's mode to 0755 whatever the umask was when it was made. libarchive's
    /// `archive_write_disk_new` (zip extraction) reads the process's umask by setting it to 0 for a
    /// moment, so a folder another test thread made in that moment came out 0777, and `oceq serve`
    /// then refused it as a cache folder that is not private (a crash of a parallel run, seen once).
    static func settleMode(_ folder: String) {
        chmod(folder, 0o755)
    }
}

/// Runs `body` with a fresh empty folder and removes the folder afterwards, also when `body` throws.
public func withTemporaryFolder<T>(_ label: String = "oceq-test", _ body: (String) throws -> T) rethrows -> T {
    let folder = TestTemporary.make(label)
    defer { TestTemporary.remove(folder) }
    return try body(folder)
}

/// Runs `body` with a fresh empty folder and removes the folder afterwards, also when `body` throws.
public func withTemporaryFolder<T>(
    _ label: String = "oceq-test", isolation: isolated (any Actor)? = #isolation,
    _ body: (String) async throws -> T
) async rethrows -> T {
    let folder = TestTemporary.make(label)
    defer { TestTemporary.remove(folder) }
    return try await body(folder)
}
