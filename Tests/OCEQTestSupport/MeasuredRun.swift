// Runs the built `oceq` binary with its stdout and stderr going to files and reaps it with
// `wait4`, so a test learns the child's own peak memory (not the test runner's) and can stop a
// run that never finishes.

import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one measured run of a program left behind.
public struct MeasuredRun: Sendable {
    /// The exit code, or 128 + signal when it was killed.
    public var code: Int32
    /// Everything written to stdout, raw bytes.
    public var stdout: [UInt8]
    /// Everything written to stderr, raw bytes.
    public var stderr: [UInt8]
    /// The child's peak resident set size in KiB (`ru_maxrss`).
    public var maxResidentKiB: Int
    /// Whether the run was killed for going past its time limit.
    public var timedOut: Bool

    /// stdout as text (invalid UTF-8 replaced).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr as text (invalid UTF-8 replaced).
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// Runs `executable` (default: the built oceq) in `directory` (default: the repository root)
    /// with `arguments`, `input` on stdin and the environment changes in `environment` (a nil value
    /// removes a variable); kills it after `timeLimit` seconds.
    public static func run(
        _ arguments: [String], input: String = "", environment: [String: String?] = [:],
        directory: String? = nil, executable: URL? = nil, timeLimit: Double = 120
    ) async throws -> MeasuredRun {
        try await OffPool.run {
            try runBlocking(
                arguments, input: input, environment: environment, directory: directory, executable: executable,
                timeLimit: timeLimit)
        }
    }

    private static func runBlocking(
        _ arguments: [String], input: String, environment: [String: String?], directory: String?,
        executable: URL?, timeLimit: Double
    ) throws -> MeasuredRun {
        let scratch = NSTemporaryDirectory() + "oceq-measured-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let inPath = scratch + "/stdin"
        let outPath = scratch + "/stdout"
        let errPath = scratch + "/stderr"
        try Data(input.utf8).write(to: URL(fileURLWithPath: inPath))

        var env = ProcessInfo.processInfo.environment
        for key in ["OCEQ_URL", "OCEQ_CHANNEL_TOKEN", "OCEQ_BEARER", "COLUMNS"] { env.removeValue(forKey: key) }
        for (key, value) in environment { env[key] = value }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of the test process (another test's sockets and files) reaches the child.
        guard oceq_spawn_addclosefrom(&actions, 3) == 0 else { throw POSIXError(.EIO) }
        let cwd = directory ?? OceqBinary.repositoryRoot.path
        let path = (executable ?? OceqBinary.executable).path
        // posix_spawn has no working-directory action on every libc: go through /bin/sh's `cd`.
        let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd, path] + arguments
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, cArgs, cEnv)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        let deadline = Date().addingTimeInterval(timeLimit)
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw POSIXError(.ECHILD) }
            if Date() > deadline, !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(10_000)
        }
        let exited = (status & 0x7F) == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return MeasuredRun(
            code: code, stdout: Array(FileManager.default.contents(atPath: outPath) ?? Data()),
            stderr: Array(FileManager.default.contents(atPath: errPath) ?? Data()),
            maxResidentKiB: Int(usage.ru_maxrss), timedOut: timedOut)
    }
}
