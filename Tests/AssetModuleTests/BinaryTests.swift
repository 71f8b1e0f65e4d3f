// The asset commands through the built `oceq` (`$OCEQ_BINARY`, else `.build/debug/oceq`), run in
// the repository's root so that credentials.json names the sample channel: the executable lists
// the module, and errors reach stderr with exit code 1.

import Foundation
import Testing

@Suite("The asset commands in the built oceq binary", .serialized)
struct BinaryTests {
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["OCEQ_BINARY"] { return URL(fileURLWithPath: path) }
        return repositoryRoot.appendingPathComponent(".build/debug/oceq")
    }

    /// Runs oceq with `arguments`; exit code, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        var environment = ProcessInfo.processInfo.environment
        for key in ["OCEQ_URL", "OCEQ_CHANNEL_TOKEN", "OCEQ_BEARER", "COLUMNS"] { environment.removeValue(forKey: key) }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = DispatchQueue(label: "stderr")
        nonisolated(unsafe) var stderrData = Data()
        let group = DispatchGroup()
        errors.async(group: group) { stderrData = err.fileHandleForReading.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self),
            String(decoding: stderrData, as: UTF8.self)
        )
    }

    @Test("show and types run in the binary")
    func showAndTypes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.executable.path), "build oceq first")
        let result = try BinaryTests.run(["-c", "show slug:spiced-maple-latte", "-c", "types"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nfields (alphabetical)\n"))
        #expect(result.stdout.contains("(5 types, 146 items)"))
    }

    @Test("an unknown id is one error on stderr and exit code 1")
    func unknownID() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.executable.path), "build oceq first")
        let result = try BinaryTests.run(["-c", "fields CORE00000000000000000000000000000000"])
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: no item CORE00000000000000000000000000000000 in this channel"))
    }
}
