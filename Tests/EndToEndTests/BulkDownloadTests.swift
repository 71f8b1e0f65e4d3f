import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// The download pool under a mix of injected faults: every file must end complete and correct.
@Suite("End to end: a bulk download under faults")
struct BulkDownloadTests {
    /// About a fifth of all requests fail: 5 % each of 503, reset, truncate and 429.
    static let faults = "503@5%,reset@5%:after=3000,truncate@5%,429@5%:retry-after=0"

    @Test("50 natives at 8 parallel under ~20% mixed faults all complete byte-identical; a rerun too")
    func fiftyFilesUnderFaults() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let server = try SampleServer(faults: FaultPlan(spec: Self.faults, seed: 20_240_601, pathPrefix: "/assets"))
        let clock = FakeClock()
        let retry = RetryPolicy(maxAttempts: 8, maxTotalTime: 3600, random: { 0.5 })
        let client = try server.client(retry: retry, clock: clock)
        let images = Array(try SampleAsset.images().prefix(50))
        #expect(images.count == 50)
        let jobs = images.map {
            DownloadJob(DeliveryAPI.downloadNative(id: $0.id), folder: folder, name: "\($0.id)-\($0.name)")
        }
        let totals = Recorder<DownloadTotals>()
        let results = await client.download(jobs, maxConcurrent: 8, totals: { totals.append($0) })

        let expectedBytes = images.map { fileBytes($0.nativePath) ?? [] }
        func verify(_ results: [Result<DownloadResult, DeliveryError>], _ pass: String) {
            #expect(results.count == 50)
            for (index, result) in results.enumerated() {
                switch result {
                case .success(let done):
                    #expect(done.path == jobs[index].path)
                    #expect(fileBytes(done.path) == expectedBytes[index], "\(pass): \(jobs[index].name)")
                case .failure(let error):
                    Issue.record("\(pass): \(jobs[index].name) failed: \(error)")
                }
            }
            #expect(folderEntries(folder) == jobs.map(\.name).sorted(), "\(pass): only the final files remain")
        }
        verify(results, "first run")

        let faultLines = server.log.filter { $0.hasPrefix("fault: ") }
        let assetRequests = server.requests
        let injected = assetRequests.filter { $0.status == 503 || $0.status == 429 }.count
        #expect(faultLines.count >= 8, "faults were injected: \(faultLines.count) of \(assetRequests.count)")
        for kind in ["fault: 503", "fault: 429", "fault: reset", "fault: truncate"] {
            #expect(faultLines.contains { $0.hasPrefix(kind) }, "\(kind) happened")
        }
        #expect(injected > 0)
        #expect(assetRequests.contains { $0.status == 206 }, "some cut download resumed with a range")
        let last = try #require(totals.all.max { $0.completed < $1.completed })
        #expect(last.completed == 50 && last.failed == 0)
        let sizes = expectedBytes.reduce(0) { $0 + Int64($1.count) }
        #expect(totals.all.map(\.bytesReceived).max() ?? 0 >= sizes)

        // DeliveryKit has no skip-if-present logic: a rerun downloads every file again (to its
        // `.part`, then renames over the existing file). It must still end with the same files.
        let before = server.requests.count
        let rerun = await client.download(jobs, maxConcurrent: 8)
        verify(rerun, "rerun")
        #expect(server.requests.count - before >= 50)
    }
}
