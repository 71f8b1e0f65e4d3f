import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// DeliveryKit's retry policy against `oceq serve`'s fault injection. The clock is a fake that
/// records each wait instead of sleeping, so `Retry-After` is checked exactly and nothing waits.
@Suite("End to end: retries against injected faults")
struct RetryTests {
    static func policy(attempts: Int) -> RetryPolicy { RetryPolicy(maxAttempts: attempts, random: { 0 }) }

    @Test("a list answered 503 twice succeeds on the third attempt, waiting the Retry-After each time")
    func serviceUnavailableThenSuccess() async throws {
        let server = try SampleServer(
            faults: FaultPlan(spec: "503:retry-after=3", pathPrefix: "/items", firstRequests: 2))
        let clock = FakeClock()
        let client = try server.client(retry: Self.policy(attempts: 4), clock: clock)
        let page = try await client.fetch(DeliveryAPI.listAssets().limit(10))
        #expect(page.items.count == 10 && page.totalResults == 146)
        #expect(clock.sleeps == [3, 3])
        #expect(server.requests.map(\.status) == [503, 503, 200])
    }

    @Test("a download answered 429 with Retry-After succeeds after the waits, byte-identical")
    func tooManyRequestsThenSuccess() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let server = try SampleServer(
            faults: FaultPlan(spec: "429:retry-after=2", pathPrefix: "/assets", firstRequests: 2))
        let clock = FakeClock()
        let client = try server.client(retry: Self.policy(attempts: 4), clock: clock)
        let image = try #require(try SampleAsset.images().last)
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: image.name)
        let result = try await client.download(job)
        #expect(fileBytes(result.path) == fileBytes(image.nativePath))
        #expect(clock.sleeps == [2, 2])
        #expect(server.requests.map(\.status) == [429, 429, 200])
        #expect(folderEntries(folder) == [image.name])
    }

    @Test("a 429 with Retry-After 0 is retried at once on the real clock")
    func realClockSmallRetryAfter() async throws {
        let server = try SampleServer(
            faults: FaultPlan(spec: "429:retry-after=0", pathPrefix: "/items", firstRequests: 1))
        // The 60 s budget of the default policy counts from the first attempt, which a loaded
        // machine running the whole suite may answer late: this test is about Retry-After 0 only.
        let policy = RetryPolicy(maxAttempts: 2, maxTotalTime: 3600, random: { 0 })
        let client = try server.client(retry: policy, clock: SystemRetryClock())
        let asset = try await client.fetch(DeliveryAPI.readAsset(slug: "reussir-son-cappuccino"))
        #expect(asset.language == "fr-FR")
        #expect(server.requests.map(\.status) == [429, 200])
    }

    @Test("each retryable server error is retried", arguments: [500, 502, 503, 504])
    func retryableStatuses(status: Int) async throws {
        let server = try SampleServer(
            faults: FaultPlan(spec: "\(status)", pathPrefix: "/items", firstRequests: 1))
        let clock = FakeClock()
        let client = try server.client(
            retry: RetryPolicy(maxAttempts: 2, initialBackoff: 0.25, random: { 0.5 }), clock: clock)
        _ = try await client.fetch(DeliveryAPI.listTaxonomies())
        _ = try await client.fetch(DeliveryAPI.listAssets().limit(1))
        #expect(server.requests.map(\.status) == [200, status, 200])
        // 503 carries Retry-After (1 s by default); the others back off with jitter: 0.5 × 0.25 s.
        #expect(clock.sleeps == [status == 503 ? 1 : 0.125])
    }

    @Test("exhausted retries of a 503 end in the typed HTTP error of the last answer")
    func exhaustedServiceUnavailable() async throws {
        let server = try SampleServer(faults: FaultPlan(spec: "503:retry-after=1", pathPrefix: "/items"))
        let clock = FakeClock()
        let client = try server.client(retry: Self.policy(attempts: 3), clock: clock)
        let error = await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.listAssets()) }
        guard case .http(let http)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(http.status == 503 && http.errorCode == "OCEQ-FAULT-503")
        #expect(http.detail == "injected fault: 503" && http.retryAfter == 1)
        #expect(
            http.description.contains("(HTTP 503 Service Unavailable")
                && http.description.contains(" from GET http://127.0.0.1:"))
        #expect(server.requests.count == 3)
        #expect(clock.sleeps == [1, 1])
    }

    @Test("exhausted retries of a 429 download fail typed, with no file or part left")
    func exhaustedTooManyRequests() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let server = try SampleServer(faults: FaultPlan(spec: "429:retry-after=5", pathPrefix: "/assets"))
        let clock = FakeClock()
        let client = try server.client(retry: Self.policy(attempts: 4), clock: clock)
        let image = try #require(try SampleAsset.images().first)
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: image.name)
        let error = await #expect(throws: DeliveryError.self) { try await client.download(job) }
        guard case .http(let http)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(http.status == 429 && http.retryAfter == 5 && http.errorCode == "OCEQ-FAULT-429")
        #expect(server.requests.count == 4)
        #expect(clock.sleeps == [5, 5, 5])
        #expect(folderEntries(folder).isEmpty)
    }

    @Test("a Retry-After beyond the total time allowed is not waited for")
    func retryAfterBeyondTheBudget() async throws {
        let server = try SampleServer(faults: FaultPlan(spec: "429:retry-after=120", pathPrefix: "/items"))
        let clock = FakeClock()
        let client = try server.client(
            retry: RetryPolicy(maxAttempts: 5, maxTotalTime: 60, random: { 0 }), clock: clock)
        let error = await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.listAssets()) }
        if case .http(let http)? = error {
            #expect(http.status == 429 && http.retryAfter == 120)
        } else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
        }
        #expect(server.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test("exhausted resets end in a connection error naming the redacted URL, and no final file")
    func exhaustedResets() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let server = try SampleServer(faults: FaultPlan(spec: "reset:after=0", pathPrefix: "/assets"))
        let client = try server.client(retry: Self.policy(attempts: 3))
        let image = try #require(try SampleAsset.images().first)
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: image.name)
        let error = await #expect(throws: DeliveryError.self) { try await client.download(job) }
        let thrown = try #require(error)
        #expect(thrown.isConnectionFailure, "\(thrown)")
        #expect(thrown.url?.contains("/assets/\(image.id)/native?channelToken=REDACTED") == true)
        #expect(server.requests.count == 3)
        #expect(!fileExists(job.path))
    }

    @Test("a 404 is not retried")
    func notFoundIsFinal() async throws {
        let server = try SampleServer()
        let clock = FakeClock()
        let client = try server.client(retry: Self.policy(attempts: 4), clock: clock)
        await #expect(throws: DeliveryError.self) {
            try await client.fetch(DeliveryAPI.readAsset(slug: "no-such-slug"))
        }
        #expect(server.requests.count == 1 && clock.sleeps.isEmpty)
    }
}
