import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQTestSupport
import Testing

@testable import DeliveryTransport

#if canImport(Glibc)
    import Glibc
#endif

/// A download pool over libcurl hands the engine more files than it may run; the engine runs a
/// lane's `limit` at once and starts the next when one ends. These pin what a user sees of that:
/// every file arrives, no more at once than asked, a failure stays with its file, a cancel ends
/// the waiting ones too.
@Suite("Transfers bounded in libcurl's engine")
struct TransferLaneTests {
    /// The requests the server is answering at once, and the most it ever answered at once.
    final class InFlight: Sendable {
        private let state = Locked((now: 0, most: 0))

        func enter() {
            state.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
        }

        func leave() { state.withLock { $0.now -= 1 } }

        var most: Int { state.withLock { $0.most } }
    }

    static func jobs(_ count: Int, in folder: String) -> [DownloadJob] {
        (0..<count).map { DownloadJob(DeliveryAPI.downloadNative(id: "CONT\($0)"), folder: folder, name: "\($0).bin") }
    }

    /// The item id of a download request (`/content/published/api/v1.1/assets/ID/native`).
    static func id(_ request: LoopbackServer.Request) -> String {
        String(request.target.split(separator: "/")[5])
    }

    /// Waits (at most 10 s) until the server has seen `count` requests.
    static func waitForRequests(_ server: LoopbackServer, _ count: Int) async throws {
        var tries = 0
        while server.requests.count < count && tries < 2000 {
            try await Task.sleep(for: .milliseconds(5))
            tries += 1
        }
        try #require(server.requests.count >= count)
    }

    @Test("a pool of more files than its concurrency gets every file, never more at once than asked")
    func moreFilesThanConcurrency() async throws {
        let inFlight = InFlight()
        let server = try LoopbackServer { request in
            inFlight.enter()
            defer { inFlight.leave() }
            usleep(2_000)
            return .respond(status: 200, body: Array(repeating: UInt8(Self.id(request).count), count: 20_000))
        }
        defer { server.stop() }
        let folder = temporaryFolder()
        let jobs = Self.jobs(30, in: folder)
        let results = try await CurlTransportTests.client(server).download(jobs, maxConcurrent: 3)
        for (job, result) in zip(jobs, results) {
            #expect((try? result.get())?.bytes == 20_000)
            #expect(readFile(job.path) == Array(repeating: UInt8(job.name.count), count: 20_000))
            #expect(!fileExists(job.partPath))
        }
        #expect(server.requests.count == 30)
        #expect(Set(server.requests.map(Self.id)).count == 30)
        #expect(inFlight.most <= 3)
    }

    @Test("a file failing in the middle of the queue fails alone; the files behind it still arrive")
    func failureInTheMiddle() async throws {
        let server = try LoopbackServer { request in
            switch Self.id(request) {
            case "CONT7": return .text(404, #"{"title":"Not Found"}"#)
            case "CONT12": return .cutShort(status: 200, body: Array(repeating: 1, count: 1000), declaredLength: 5000)
            default: return .respond(status: 200, body: Array(repeating: 2, count: 10_000))
            }
        }
        defer { server.stop() }
        let folder = temporaryFolder()
        let jobs = Self.jobs(20, in: folder)
        let results = try await CurlTransportTests.client(server).download(jobs, maxConcurrent: 2)
        for (index, result) in results.enumerated() {
            switch (index, result) {
            case (7, .failure(.http(let error))): #expect(error.status == 404)
            case (12, .failure(.bodyCutShort(_, let received, let expected))):
                #expect(received == 1000)
                #expect(expected == 5000)
            case (7, _), (12, _): Issue.record("file \(index): \(result)")
            default: #expect((try? result.get())?.bytes == 10_000)
            }
        }
        #expect(!fileExists(jobs[7].path))
        #expect(!fileExists(jobs[7].partPath))
        #expect(!fileExists(jobs[12].path))
        #expect(server.requests.count == 20)
    }

    @Test("cancelling a pool ends its running and its waiting transfers as cancelled and names no file")
    func cancelPool() async throws {
        let server = try LoopbackServer { _ in
            .stall(body: Array(repeating: 1, count: 100), declaredLength: 10_000, seconds: 120)
        }
        defer { server.stop() }
        let folder = temporaryFolder()
        let jobs = Self.jobs(10, in: folder)
        let client = try CurlTransportTests.client(server)
        let pool = Task { await client.download(jobs, maxConcurrent: 2) }
        try await Self.waitForRequests(server, 2)
        pool.cancel()
        let results = await pool.value
        for result in results {
            guard case .failure(.cancelled) = result else {
                Issue.record("expected cancelled, got \(result)")
                continue
            }
        }
        for job in jobs { #expect(!fileExists(job.path)) }
        // Sent at most: the two running and those the pool had handed the engine ahead (as many again).
        #expect(server.requests.count <= 4)
    }

    @Test("a transfer cancelled while it waits in its lane is never sent, and the lane's place is given back")
    func cancelWhileWaiting() async throws {
        let server = try LoopbackServer { request in
            Self.id(request) == "CONT1"
                ? .stall(body: [1], declaredLength: 10, seconds: 120) : .respond(status: 200, body: [1, 2, 3])
        }
        defer { server.stop() }
        let folder = temporaryFolder()
        let client = try CurlTransportTests.client(server)
        let lane = TransferLane(limit: 1)
        func start(_ id: String) -> Task<DownloadResult, any Error> {
            let job = DownloadJob(DeliveryAPI.downloadNative(id: id), folder: folder, name: id)
            return Task { try await TransferLane.$current.withValue(lane) { try await client.download(job) } }
        }
        let stalled = start("CONT1")
        try await Self.waitForRequests(server, 1)
        let waiting = start("CONT2")
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await #expect(throws: DeliveryError.self) { try await waiting.value }
        stalled.cancel()
        await #expect(throws: DeliveryError.self) { try await stalled.value }
        // The lane runs one at a time: this gets through only if both gave their place back.
        let after = try await start("CONT3").value
        #expect(after.bytes == 3)
        #expect(server.requests.map(Self.id) == ["CONT1", "CONT3"])
        #expect(!fileExists(folder + "/CONT2"))
    }
}
