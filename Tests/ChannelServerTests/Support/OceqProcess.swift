import Foundation
import OCEQTestSupport

/// The built `oceq` executable, run as a user would run it.
enum OceqProcess {
    /// `.build/<config>/oceq`, found beside the test bundle (or `$OCEQ_BINARY`).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["OCEQ_BINARY"] { return URL(fileURLWithPath: path) }
        return Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("oceq")
    }

    /// Runs oceq to completion and returns its exit code, stdout and stderr.
    static func run(
        _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let finished = try await ChildProcess(
            executable.path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdout: .pipe, stderr: .pipe
        ).finish()
        return (finished.code, finished.stdoutText, finished.stderrText)
    }

    /// A running `oceq serve` on an ephemeral port; `stop()` sends SIGTERM and returns the exit code.
    final class Server {
        let process: ChildProcess
        private(set) var port = 0

        init(_ arguments: [String]) async throws {
            process = try ChildProcess(
                OceqProcess.executable.path, ["serve", "--port", "0"] + arguments, stdout: .pipe, stderr: .pipe)
            // The first stdout line names the URL with the chosen port.
            let text = await process.readLine() ?? ""
            if let range = text.range(of: #":(\d+)/"#, options: .regularExpression) {
                port = Int(text[range].dropFirst().dropLast()) ?? 0
            }
        }

        /// Sends SIGTERM, waits, and returns the exit status and everything written to stderr.
        func stop() async -> (status: Int32, stderr: String) {
            process.terminate()
            let finished = await process.finish()
            return (finished.code, finished.stderrText)
        }
    }
}
