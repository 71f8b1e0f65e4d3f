// The one way the tests start a program: posix_spawn, not Foundation's `Process`. On Linux,
// `Process.run()` lists /proc/self/fd with a readdir copy that reads past the end of glibc's buffer
// and now and then crashes a busy test process (swift-corelibs-foundation PR #5472, not in Swift
// 6.3.1).
//
// The child starts as a shell would start it: stdin, stdout and stderr from a pipe, a file,
// /dev/null or the test process's own; every other descriptor closed (closefrom 3); no signal
// blocked and none ignored; in the test process's group unless `newProcessGroup`. The test
// process's pipe ends are close-on-exec from their creation, so no other child holds them.
// Piped output is read by one thread per child (ChildProcessStreams) while the child runs, so
// stdout and stderr are both read to the end and a child never stops on a full pipe.
//
// No child outlives its time limit (`timeLimit`, 10 minutes unless given): a watchdog kills it
// (its whole group when it has one) and says so on stderr, so a child that hangs fails its test
// instead of holding the whole run until CI's own limit ends it with no name to go on.

import CSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started by a test; `wait()` reaps it.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's stdin comes from.
    public enum Input: Sendable {
        /// The test process's own stdin.
        case inherit
        /// /dev/null.
        case null
        /// A file, opened for reading.
        case file(String)
        /// These bytes through a pipe, closed after the last one (the child then reads end of file).
        case bytes([UInt8])
        /// A pipe the test keeps open until `closeInput()` (or until the ChildProcess is released).
        case pipe
    }

    /// Where the child's stdout or stderr goes.
    public enum Output: Sendable {
        /// The test process's own.
        case inherit
        /// /dev/null.
        case null
        /// A file, created or emptied.
        case file(String)
        /// A pipe read into memory: `readLine()`, `readToEnd()`.
        case pipe
        /// Wherever stdout goes (for stderr only): `2>&1`.
        case stdout
    }

    /// How the child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exit(Int32)
        /// A signal killed it.
        case signal(Int32)

        /// The status a shell shows: the exit status, or 128 + the signal.
        public var code: Int32 {
            switch self {
            case .exit(let status): status
            case .signal(let signal): 128 + signal
            }
        }

        /// `exit 3`, `signal 9`.
        public var description: String {
            switch self {
            case .exit(let status): "exit \(status)"
            case .signal(let signal): "signal \(signal)"
            }
        }
    }

    /// A finished child and everything it wrote to its piped stdout and stderr.
    public struct Finished: Sendable {
        /// How it ended.
        public var termination: Termination
        /// Its stdout, raw bytes (empty unless piped).
        public var stdout: [UInt8]
        /// Its stderr, raw bytes (empty unless piped).
        public var stderr: [UInt8]

        /// The exit status, or 128 + the signal that killed it.
        public var code: Int32 { termination.code }
        /// stdout as text (invalid UTF-8 replaced).
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// stderr as text (invalid UTF-8 replaced).
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// A program that could not be started.
    public struct StartError: Error, CustomStringConvertible {
        /// `cannot start PATH: REASON`.
        public var description: String
    }

    /// The child's process id.
    public let pid: pid_t
    private let streams: ChildProcessStreams
    private let reaping = NSLock()
    private let state = NSLock()
    private var ended: Termination?
    private var input: Int32
    private let ownGroup: Bool

    /// How long a child may run unless its test says otherwise: far beyond any test's child on a
    /// loaded 2-core machine (seconds), short of CI's limit for the whole run.
    public static let defaultTimeLimit: Double = 600

    private static let watchdog = DispatchQueue(label: "ChildProcess.watchdog")

    /// Starts `executable` (a path; no PATH search) with `arguments` (without argv[0]) and exactly
    /// `environment`, in `directory` (else the test process's own), its streams connected as given;
    /// killed (SIGKILL) if it still runs `timeLimit` seconds after it started.
    public init(
        _ executable: String, _ arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment, directory: String? = nil,
        stdin: Input = .inherit, stdout: Output = .inherit, stderr: Output = .inherit, newProcessGroup: Bool = false,
        timeLimit: Double = ChildProcess.defaultTimeLimit
    ) throws {
        ownGroup = newProcessGroup
        precondition(!Self.isStdout(stdout), "stdout cannot go to stdout")
        // The ends the child gets (closed here after the spawn) and the ends this process keeps.
        var childEnds: [Int32] = []
        var kept: (input: Int32, stdout: Int32, stderr: Int32) = (-1, -1, -1)
        func pipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard oceq_pipe_cloexec(&fds) == 0 else { throw Self.failure(executable, errno) }
            return (fds[0], fds[1])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        do {
            var bytes: [UInt8] = []
            switch stdin {
            case .inherit: break
            case .null: try Self.check(posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
            case .file(let path): try Self.check(posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0))
            case .bytes, .pipe:
                if case .bytes(let given) = stdin { bytes = given }
                let ends = try pipe()
                childEnds.append(ends.read)
                kept.input = ends.write
                try Self.check(posix_spawn_file_actions_adddup2(&actions, ends.read, 0))
            }
            for (fd, output) in [(Int32(1), stdout), (2, stderr)] {
                switch output {
                case .inherit: break
                case .null:
                    try Self.check(posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0))
                case .file(let path):
                    try Self.check(
                        posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644))
                case .pipe:
                    let ends = try pipe()
                    childEnds.append(ends.write)
                    if fd == 1 { kept.stdout = ends.read } else { kept.stderr = ends.read }
                    try Self.check(posix_spawn_file_actions_adddup2(&actions, ends.write, fd))
                case .stdout: try Self.check(posix_spawn_file_actions_adddup2(&actions, 1, 2))
                }
            }
            if let directory { try Self.check(oceq_spawn_addchdir(&actions, directory)) }
            try Self.check(oceq_spawn_addclosefrom(&actions, 3))

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var allSignals = sigset_t()
            sigfillset(&allSignals)
            try Self.check(posix_spawnattr_setsigmask(&attributes, &noSignals))
            try Self.check(posix_spawnattr_setsigdefault(&attributes, &allSignals))
            var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
            if newProcessGroup {
                flags |= Int32(POSIX_SPAWN_SETPGROUP)
                try Self.check(posix_spawnattr_setpgroup(&attributes, 0))
            }
            try Self.check(posix_spawnattr_setflags(&attributes, Int16(flags)))

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var child: pid_t = 0
            let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            guard spawned == 0 else { throw Self.failure(executable, spawned) }
            pid = child
            childEnds.forEach { close($0) }
            // The test keeps a `.pipe` stdin; the streams' thread writes `.bytes` and closes it.
            let keepsInput: Bool
            if case .pipe = stdin { keepsInput = true } else { keepsInput = false }
            input = keepsInput ? kept.input : -1
            streams = ChildProcessStreams(
                stdout: kept.stdout, stderr: kept.stderr, input: keepsInput ? -1 : kept.input, bytes: bytes)
            let name = ([executable] + arguments).joined(separator: " ").prefix(300)
            // A queue of its own: the global queues share their threads with the cooperative pool,
            // which blocked tests may hold.
            Self.watchdog.asyncAfter(deadline: .now() + timeLimit) { [weak self] in
                // Not `isRunning`: a `reap()` blocked on another thread holds its lock.
                guard let self, self.collect() == nil else { return }
                FileHandle.standardError.write(
                    Data("ChildProcess: killed after \(Int(timeLimit)) s (its time limit): \(name)\n".utf8))
                self.kill(SIGKILL)
            }
        } catch {
            (childEnds + [kept.input, kept.stdout, kept.stderr]).filter { $0 >= 0 }.forEach { close($0) }
            throw error
        }
    }

    deinit {
        if input >= 0 { close(input) }
    }

    /// Runs `executable` to its end with `input` on stdin and both outputs piped.
    public static func run(
        _ executable: String, _ arguments: [String] = [],
        environment: [String: String] = ProcessInfo.processInfo.environment, directory: String? = nil,
        input: [UInt8] = []
    ) async throws -> Finished {
        let child = try ChildProcess(
            executable, arguments, environment: environment, directory: directory, stdin: .bytes(input),
            stdout: .pipe, stderr: .pipe)
        return await child.finish()
    }

    /// Waits (off the cooperative pool) for the end of its piped outputs and for the child; how it
    /// ended and what it wrote.
    public func finish() async -> Finished {
        await OffPool.run {
            let output = self.streams.readToEnd()
            return Finished(termination: self.reap(), stdout: output.stdout, stderr: output.stderr)
        }
    }

    /// Everything it writes to its piped stdout and stderr, once both are closed (at its end, say).
    public func readToEnd() async -> (stdout: [UInt8], stderr: [UInt8]) {
        await OffPool.run { self.streams.readToEnd() }
    }

    /// The next line of its piped stdout, without the newline; waits for it; nil at the end.
    /// (The lines read stay in what `readToEnd()` returns.)
    public func readLine() async -> String? {
        await OffPool.run { self.streams.readLine().map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Closes a `.pipe` stdin: the child reads end of file.
    public func closeInput() {
        state.lock()
        defer { state.unlock() }
        if input >= 0 {
            close(input)
            input = -1
        }
    }

    /// Waits (off the cooperative pool) for the child to end (once; later calls return the same)
    /// and reaps it.
    @discardableResult
    public func wait() async -> Termination {
        await OffPool.run { self.reap() }
    }

    /// Waits up to `seconds` (off the cooperative pool) for the child to end; nil if it still runs.
    public func wait(seconds: Double) async -> Termination? {
        await OffPool.run { self.reap(within: seconds) }
    }

    /// Waits up to `seconds` for the child to end, blocking the calling thread; nil if it still runs.
    public func reap(within seconds: Double) -> Termination? {
        let deadline = DispatchTime.now() + seconds
        while isRunning {
            guard DispatchTime.now() < deadline else { return nil }
            usleep(5_000)
        }
        return termination
    }

    /// Waits for the child to end, blocking the calling thread: only for `defer`, `deinit` and other
    /// synchronous code right after the child was signalled, where the wait is short.
    @discardableResult
    public func reap() -> Termination {
        reaping.lock()
        defer { reaping.unlock() }
        while true {
            if let ended = collect() { return ended }
            // Waits for the end without reaping: the child is reaped under `state` (see `collect`).
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno != EINTR else { continue }
            // No such child: the watchdog reaped it in between, or something is wrong.
            if errno == ECHILD, let ended = collect() { return ended }
            fatalError("waitid(\(pid)): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether the child is still running (reaps it when it has ended).
    public var isRunning: Bool { collect() == nil }

    /// Reaps the child if it has ended, without waiting, and says how it ended; nil while it runs.
    /// Under the same lock as `kill`, so a signal never reaches a reaped child's pid, which another
    /// process may have by then.
    @discardableResult
    private func collect() -> Termination? {
        state.lock()
        defer { state.unlock() }
        if let ended { return ended }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, WNOHANG) } while reaped < 0 && errno == EINTR
        guard reaped == pid else { return nil }
        let signal = status & 0x7F
        ended = signal == 0 ? .exit((status >> 8) & 0xFF) : .signal(signal)
        return ended
    }

    /// Sends `signal` to the child, unless it has been reaped already (its pid may be another's).
    /// With `newProcessGroup`, the whole group gets it (programs it started too).
    public func kill(_ signal: Int32) {
        state.lock()
        defer { state.unlock() }
        if ended == nil { _ = Glibc.kill(ownGroup ? -pid : pid, signal) }
    }

    /// Sends SIGINT (Ctrl-C).
    public func interrupt() { kill(SIGINT) }

    /// Sends SIGTERM.
    public func terminate() { kill(SIGTERM) }

    private var termination: Termination? {
        state.lock()
        defer { state.unlock() }
        return ended
    }

    private static func isStdout(_ output: Output) -> Bool {
        if case .stdout = output { return true }
        return false
    }

    private static func check(_ result: Int32) throws {
        guard result == 0 else { throw StartError(description: "cannot set up a child: \(describe(result))") }
    }

    private static func failure(_ executable: String, _ code: Int32) -> StartError {
        StartError(description: "cannot start \(executable): \(describe(code))")
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
