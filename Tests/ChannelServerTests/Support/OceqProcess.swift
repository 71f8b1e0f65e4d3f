import Foundation

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
    ) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }

    /// A running `oceq serve` on an ephemeral port; `stop()` sends SIGTERM and returns the exit code.
    final class Server {
        let process = Process()
        let stdout = Pipe()
        let stderr = Pipe()
        private(set) var port = 0

        init(_ arguments: [String]) throws {
            process.executableURL = OceqProcess.executable
            process.arguments = ["serve", "--port", "0"] + arguments
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            // The first stdout line names the URL with the chosen port.
            var line: [UInt8] = []
            while true {
                let byte = stdout.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte.first == 10 { break }
                line.append(byte.first!)
            }
            let text = String(decoding: line, as: UTF8.self)
            if let range = text.range(of: #":(\d+)/"#, options: .regularExpression) {
                port = Int(text[range].dropFirst().dropLast()) ?? 0
            }
        }

        /// Sends SIGTERM, waits, and returns the exit status and everything written to stderr.
        func stop() -> (status: Int32, stderr: String) {
            process.terminate()
            process.waitUntilExit()
            let errors = stderr.fileHandleForReading.readDataToEndOfFile()
            return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
        }
    }
}
