// The built `oceq` executable, run as a user would run it, from the test targets that check its
// stdout, stderr and exit code.

import Foundation

/// Runs the built `oceq` binary.
public enum OceqBinary {
    /// The repository's root folder.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `$OCEQ_BINARY`, else `oceq` beside the test bundle, else `.build/debug/oceq`.
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["OCEQ_BINARY"] { return URL(fileURLWithPath: path) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("oceq")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/oceq")
    }

    /// Runs oceq in the repository's root with `input` on stdin; exit code, stdout and stderr.
    /// The connection variables (`OCEQ_URL`, `OCEQ_CHANNEL_TOKEN`, `OCEQ_BEARER`) and `COLUMNS`
    /// of the test's own environment are removed unless `environment` sets them.
    /// `directory` is the working folder instead of the repository's root.
    public static func run(
        _ arguments: [String], input: String = "", environment: [String: String] = [:], executable: URL? = nil,
        directory: URL? = nil
    ) async throws -> (code: Int32, stdout: String, stderr: String) {
        var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        for key in ["OCEQ_URL", "OCEQ_CHANNEL_TOKEN", "OCEQ_BEARER", "COLUMNS"] where environment[key] == nil {
            merged.removeValue(forKey: key)
        }
        let finished = try await ChildProcess.run(
            (executable ?? OceqBinary.executable).path, arguments, environment: merged,
            directory: (directory ?? repositoryRoot).path, input: Array(input.utf8))
        return (finished.code, finished.stdoutText, finished.stderrText)
    }

    /// Runs oceq with `arguments` from `/bin/sh` after the shell commands `setup` (a limit set with
    /// `ulimit`, a signal ignored with `trap`), which oceq inherits; otherwise as `run`.
    public static func run(
        after setup: String, _ arguments: [String]
    ) async throws -> (code: Int32, stdout: String, stderr: String) {
        try await run(
            ["-c", setup + #" && exec "$0" "$@""#, executable.path] + arguments,
            executable: URL(fileURLWithPath: "/bin/sh"))
    }
}
