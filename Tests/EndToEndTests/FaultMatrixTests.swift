// The fault matrix of issue 10: every fault kind `oceq serve --faults` injects, against every
// operation, through DeliveryKit's real libcurl transport. Each case asserts its outcome: retried
// and succeeded (with the expected number of requests), or failed with the right typed error and
// a one-line message that names no secret; a download never leaves a file under its final name
// unless it is whole. An operation is one entry of `FaultMatrix.operations`, a fault one entry of
// `FaultMatrix.faults`; the expected outcome of a pair comes from the fault (and, where it
// differs, the operation).

import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// One operation of the matrix.
struct MatrixOperation: Sendable, CustomStringConvertible {
    var name: String
    /// The API path prefix the operation's requests go to (the faults are limited to it).
    var path: String
    /// Requests the operation makes under `path` when nothing goes wrong.
    var requests: Int
    /// Whether its responses are JSON (a `malformed` fault only touches JSON).
    var json = true
    /// Requests answered before the fault starts (paging: fault the second page).
    var skip = 0
    /// Runs the operation; `folder` is an empty folder it may write into. Throws on failure,
    /// records an issue when it "succeeds" with the wrong result.
    var run: @Sendable (_ client: DeliveryClient, _ folder: String) async throws -> Void

    var description: String { name }
}

/// What a fault should do to an operation.
enum MatrixOutcome: Sendable {
    /// Succeeds after this many extra requests (retries).
    case retried(Int)
    /// Fails with an error whose description contains the text, after this many requests.
    case fails(String, requests: Int, check: @Sendable (DeliveryError) -> Bool)
}

/// One fault kind of the matrix.
struct MatrixFault: Sendable, CustomStringConvertible {
    var name: String
    /// The `--faults` spec (nil: no server is listening at all).
    var spec: String?
    /// Requests offered to the injector (nil: all).
    var first: Int?
    var outcome: @Sendable (MatrixOperation) -> MatrixOutcome

    var description: String { name }
}

enum FaultMatrix {
    static let attempts = 3

    static let sampleImage = try! SampleAsset.images().last!
    static let readID = "COREE949A60AEBA81811CFCCDA1E2391B5E5"

    /// The operations (bulk download and mirror join as further entries).
    static let operations: [MatrixOperation] = [
        MatrixOperation(name: "list", path: "/items", requests: 1) { client, _ in
            let page = try await client.fetch(DeliveryAPI.listAssets().limit(10))
            #expect(page.items.count == 10)
        },
        MatrixOperation(name: "paging", path: "/items", requests: 3, skip: 1) { client, _ in
            var ids: [String] = []
            for try await page in client.pages(DeliveryAPI.listAssets().limit(60)) { ids += page.items.map(\.id) }
            #expect(ids.count == 146 && Set(ids).count == 146)
        },
        MatrixOperation(name: "read", path: "/items/", requests: 1) { client, _ in
            let item = try await client.fetch(DeliveryAPI.readAsset(id: readID))
            #expect(item.type == "OCEGettingStartedHomePage")
        },
        MatrixOperation(name: "single download", path: "/assets", requests: 1, json: false) {
            client, folder in
            let job = DownloadJob(
                DeliveryAPI.downloadNative(id: sampleImage.id), folder: folder, name: sampleImage.name)
            let result = try await client.download(job)
            #expect(fileBytes(result.path) == fileBytes(sampleImage.nativePath))
        },
    ]

    static func http(_ status: Int) -> @Sendable (DeliveryError) -> Bool {
        { error in
            if case .http(let http) = error { return http.status == status }
            return false
        }
    }

    static let refused: @Sendable (DeliveryError) -> Bool = { error in
        if case .connectionRefused = error { return true }
        return false
    }

    static let malformed: @Sendable (DeliveryError) -> Bool = { error in
        if case .malformedJSON = error { return true }
        return false
    }

    /// The fault kinds; a retried fault hits the first request (or the first two) of the operation.
    static let faults: [MatrixFault] = [
        MatrixFault(name: "503", spec: "503:retry-after=1", first: 1) { _ in .retried(1) },
        MatrixFault(name: "500", spec: "500", first: 1) { _ in .retried(1) },
        MatrixFault(name: "429 Retry-After", spec: "429:retry-after=2", first: 2) { _ in .retried(2) },
        MatrixFault(name: "reset mid-body", spec: "reset:after=100", first: 1) { _ in .retried(1) },
        MatrixFault(name: "truncated body", spec: "truncate", first: 1) { _ in .retried(1) },
        MatrixFault(name: "delayed first byte", spec: "delay:ms=300", first: nil) { _ in .retried(0) },
        MatrixFault(name: "stalled body", spec: "stall:bps=10", first: 1) { _ in .retried(1) },
        MatrixFault(name: "refused connection", spec: nil, first: nil) { _ in
            .fails("connection refused for http://127.0.0.1:", requests: 0, check: refused)
        },
        MatrixFault(name: "malformed JSON", spec: "malformed", first: nil) { operation in
            guard operation.json else { return .retried(0) }
            return .fails("malformed JSON from http://127.0.0.1:", requests: 1, check: malformed)
        },
        MatrixFault(name: "401", spec: "401", first: nil) { _ in
            .fails("HTTP 401 Unauthorized", requests: 1, check: http(401))
        },
        MatrixFault(name: "403", spec: "403", first: nil) { _ in
            .fails("HTTP 403 Forbidden", requests: 1, check: http(403))
        },
        MatrixFault(name: "404", spec: "404", first: nil) { _ in
            .fails("HTTP 404 Not Found", requests: 1, check: http(404))
        },
    ]

    /// A client of `origin` that retries `attempts` times on a fake clock, aborting a transfer
    /// slower than 1000 B/s for a second (so a stalled body ends quickly).
    static func client(origin: String) throws -> DeliveryClient {
        var configuration = try DeliveryConfiguration(url: origin, channelToken: SampleServer.token)
        configuration.retry = RetryPolicy(maxAttempts: attempts, random: { 0 })
        let transport = CurlTransport(options: CurlTransport.Options(lowSpeedLimit: 1000, lowSpeedTime: 1))
        return DeliveryClient(configuration: configuration, transport: transport, clock: FakeClock())
    }
}

@Suite("End to end: the fault matrix (fault kinds × operations)")
struct FaultMatrixTests {
    @Test(
        "each fault kind against each operation ends as it should",
        arguments: FaultMatrix.faults, FaultMatrix.operations)
    func matrix(fault: MatrixFault, operation: MatrixOperation) async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let server: SampleServer?
        let origin: String
        let closedPort = try ClosedPort()
        defer { withExtendedLifetime(closedPort) {} }
        if let spec = fault.spec {
            let plan = FaultPlan(
                spec: spec, pathPrefix: operation.path, firstRequests: fault.first, skip: operation.skip)
            server = try SampleServer(faults: plan)
            origin = server!.origin
        } else {
            server = nil
            origin = closedPort.origin
        }
        let client = try FaultMatrix.client(origin: origin)
        let result: Result<Void, DeliveryError>
        do {
            try await operation.run(client, folder)
            result = .success(())
        } catch let error as DeliveryError {
            result = .failure(error)
        }
        let seen = server?.requests.filter { $0.apiPath.hasPrefix(operation.path) }.count ?? 0

        switch fault.outcome(operation) {
        case .retried(let extra):
            #expect(result.failure == nil, "\(String(describing: result.failure))")
            #expect(seen == operation.requests + extra, "requests: \(server?.requests.map(\.status) ?? [])")
        case .fails(let message, let requests, let check):
            let error = try #require(result.failure, "expected a failure")
            #expect(check(error), "\(error)")
            #expect(error.description.contains(message), "\(error.description)")
            #expect(!error.description.contains("\n"), "one line: \(error.description)")
            #expect(!error.description.contains(SampleServer.token))
            // Not retried: a 4xx or a bad body is final; a refusal has no server to count.
            #expect(seen == (operation.skip + requests) * (fault.spec == nil ? 0 : 1))
        }
        // A download leaves its final name only for a whole file, and never a part beside it after success.
        if !operation.json {
            let name = FaultMatrix.sampleImage.name
            let entries = folderEntries(folder)
            if result.failure == nil {
                #expect(entries == [name])
            } else {
                #expect(!entries.contains(name), "\(entries)")
            }
        }
    }
}
