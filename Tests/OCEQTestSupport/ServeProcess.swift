// `oceq serve` run as its own process (the built binary), on an ephemeral loopback port, with its
// stdout and stderr (the access log and fault lines) kept in files a test can read and scan.

import Foundation

/// A running `oceq serve` process; stopped by `stop()` or when released.
public final class ServeProcess: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    /// The file holding its stdout.
    public let stdoutPath: String
    /// The file holding its stderr (start-up lines, the access log, injected faults).
    public let stderrPath: String
    private let process: ChildProcess
    private let scratch: String
    private let ownsScratch: Bool

    /// `http://127.0.0.1:<port>`
    public var origin: String { "http://127.0.0.1:\(port)" }

    /// Starts `oceq serve EXPORT --port 0 ARGUMENTS` and waits (up to 60 s) for its listening line.
    /// `logFolder` keeps the logs (else a temporary folder, removed when released); `cacheDirectory`
    /// lets several servers share one index cache.
    public init(
        export: String, arguments: [String] = [], logFolder: String? = nil, cacheDirectory: String? = nil
    ) async throws {
        scratch = logFolder ?? NSTemporaryDirectory() + "oceq-serve-\(UUID().uuidString)"
        ownsScratch = logFolder == nil
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        stdoutPath = scratch + "/serve.stdout"
        stderrPath = scratch + "/serve.stderr"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = try ChildProcess(
            OceqBinary.executable.path,
            [
                "serve", export, "--host", "127.0.0.1", "--port", "0", "--cache-dir",
                cacheDirectory ?? scratch + "/cache",
            ] + arguments,
            directory: OceqBinary.repositoryRoot.path, stdin: .null, stdout: .file(stdoutPath),
            stderr: .file(stderrPath))
        let deadline = Date().addingTimeInterval(60)
        var found: Int?
        while found == nil {
            let text = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last!)
            } else if Date() < deadline, process.isRunning {
                // A starved pool may resume this sleep late: the file is read once more after it.
                try await Task.sleep(for: .milliseconds(20))
            } else {
                break
            }
        }
        guard let found else {
            process.terminate()
            await process.wait()
            let errors = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw ServeProcessError(message: "oceq serve did not start: \(errors)")
        }
        port = found
    }

    deinit {
        stop()
        if ownsScratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    /// Stops the server (SIGTERM), waits for it, and says how it ended (the same on later calls).
    /// A server still running 30 s after SIGTERM is killed (SIGKILL, which its test then sees) and
    /// said so on stderr: it must not hold the run.
    @discardableResult
    public func stop() -> ChildProcess.Termination {
        if process.isRunning { process.terminate() }
        if let ended = process.reap(within: 30) { return ended }
        FileHandle.standardError.write(Data("ServeProcess: oceq serve ignored SIGTERM for 30 s; killed\n".utf8))
        process.kill(SIGKILL)
        return process.reap()
    }

    /// Everything it wrote to stderr so far (start-up lines, the access log).
    public var errors: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Everything it wrote to stdout and stderr so far.
    public var output: String {
        ((try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "")
            + ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }
}

/// `oceq serve` failed to start.
public struct ServeProcessError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
