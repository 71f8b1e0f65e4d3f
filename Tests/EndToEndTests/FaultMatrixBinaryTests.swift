// The fault matrix through the built binary: `oceq serve --faults` as its own process, and the oceq
// client run on it as a user would. Each row checks the exit code and, for a failure, the single
// line of the message (and that it names no token). Retried faults hit about half of the requests
// (a fixed seed makes the draws the same every run); the client's standard retries get through.

import Foundation
import OCEQTestSupport
import Testing

/// One row: a fault spec and what each command should end with.
struct BinaryFaultRow: Sendable, CustomStringConvertible {
    var name: String
    /// `--faults` (nil: nothing listens at the URL).
    var spec: String?
    /// nil: succeeds; else the text its one-line error contains.
    var failure: String?

    var description: String { name }
}

@Suite("End to end: the fault matrix through the oceq binary", .serialized)
struct FaultMatrixBinaryTests {
    static let token = "matrix-token-4e1b"
    static let cache = TestTemporary.shared("oceq-matrix-cache")

    /// The commands: a list, a list that pages through every image, a read of one item.
    static let commands = [
        "list type=OCEGettingStartedTopic", "count type=Image", "get COREE949A60AEBA81811CFCCDA1E2391B5E5",
    ]

    static let rows: [BinaryFaultRow] = [
        BinaryFaultRow(name: "503", spec: "503@50%:retry-after=0"),
        BinaryFaultRow(name: "500", spec: "500@50%"),
        BinaryFaultRow(name: "429 Retry-After", spec: "429@50%:retry-after=0"),
        BinaryFaultRow(name: "reset mid-body", spec: "reset@50%:after=10"),
        BinaryFaultRow(name: "truncated body", spec: "truncate@50%"),
        BinaryFaultRow(name: "delayed first byte", spec: "delay:ms=200"),
        BinaryFaultRow(name: "refused connection", spec: nil, failure: "connection refused"),
        BinaryFaultRow(name: "malformed JSON", spec: "malformed", failure: "malformed JSON"),
        BinaryFaultRow(name: "401", spec: "401", failure: "401"),
        BinaryFaultRow(name: "403", spec: "403", failure: "403"),
        BinaryFaultRow(name: "404", spec: "404", failure: "404"),
    ]

    @Test("each fault kind against list, count and get: the exit code and one-line message", arguments: rows)
    func row(_ row: BinaryFaultRow) async throws {
        let sample = OceqBinary.repositoryRoot.path + "/Samples/OCEGettingStarted"
        var server: ServeProcess?
        let origin: String
        // Held for the whole row: a port a stopped server gave back could be taken by another test's.
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        if let spec = row.spec {
            server = try await ServeProcess(
                export: sample, arguments: ["--token", Self.token, "--faults", spec, "--fault-seed", "7"],
                cacheDirectory: Self.cache)
            origin = server!.origin
        } else {
            origin = "http://127.0.0.1:\(closed.port)"
        }
        for command in Self.commands {
            let run = try await OceqBinary.run([
                "--url", origin, "--token", Self.token, "--color", "never", "-c", command,
            ])
            if let failure = row.failure {
                #expect(run.code == 1, "\(command): \(run.stderr)")
                #expect(run.stdout.isEmpty, "\(command): \(run.stdout)")
                let lines = run.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(command): one line, got \(run.stderr)")
                #expect(run.stderr.contains(failure), "\(command): \(run.stderr)")
            } else {
                #expect(run.code == 0, "\(command): \(run.stderr)")
                #expect(run.stderr.isEmpty, "\(command): \(run.stderr)")
                #expect(!run.stdout.isEmpty)
            }
            #expect(!run.stderr.contains(Self.token) && !run.stdout.contains(Self.token))
        }
        if let server, row.failure == nil, row.spec?.contains("@") == true {
            // The fault really was injected (and retried past).
            #expect(server.output.contains("oceq serve: fault: "), "\(server.output)")
        }
    }
}
