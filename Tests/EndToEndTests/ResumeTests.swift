import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// A download cut by the server's fault injection (`truncate`, `reset`) resumes from its `.part`
/// with `Range` + `If-Range`, within the same call (a retry) or in the next run.
@Suite("End to end: resuming cut downloads")
struct ResumeTests {
    static let retrying = RetryPolicy(maxAttempts: 3, random: { 0 })

    let folder = temporaryFolder()

    /// The sample's largest image, so a cut leaves a real part behind.
    static func largestImage() throws -> (SampleAsset, [UInt8]) {
        let images = try SampleAsset.images().map { ($0, fileBytes($0.nativePath) ?? []) }
        return try #require(images.max { $0.1.count < $1.1.count })
    }

    /// A server whose first request under `/assets` gets `spec`.
    static func server(firstAssetRequest spec: String) throws -> SampleServer {
        try SampleServer(faults: FaultPlan(spec: spec, pathPrefix: "/assets", firstRequests: 1))
    }

    func expectNoLeftovers(_ job: DownloadJob) {
        #expect(!fileExists(job.partPath), "no .part left")
        #expect(!fileExists(job.metaPath), "no .part.meta left")
    }

    @Test("a body truncated on the first attempt is resumed by the retry from the byte it reached")
    func truncatedThenRetried() async throws {
        defer { removeFolder(folder) }
        let (image, expected) = try Self.largestImage()
        #expect(expected.count > 100_000)
        let server = try Self.server(firstAssetRequest: "truncate:keep=40000")
        let client = try server.client(retry: Self.retrying)
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: image.name)
        let result = try await client.download(job)
        #expect(result.resumedFrom == 40_000)
        #expect(result.bytes == Int64(expected.count))
        #expect(fileBytes(job.path) == expected)
        expectNoLeftovers(job)
        let assets = server.requests.filter { $0.apiPath.hasPrefix("/assets") }
        #expect(assets.map(\.status) == [200, 206])
        #expect(assets.first?.header("Range") == nil)
        #expect(assets.last?.header("Range") == "bytes=40000-")
        #expect(assets.last?.header("If-Range") == result.etag)
        #expect(server.log.contains { $0.contains("fault: truncate to 40000") })
    }

    @Test("a cut download fails without a final file, and the next run resumes its part")
    func truncatedThenNextRun() async throws {
        defer { removeFolder(folder) }
        let (image, expected) = try Self.largestImage()
        let server = try Self.server(firstAssetRequest: "truncate:keep=25000")
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "hero.jpg")

        let first = await #expect(throws: DeliveryError.self) { try await server.client().download(job) }
        guard case .bodyCutShort(_, let received, let total)? = first else {
            Issue.record("expected bodyCutShort, got \(String(describing: first))")
            return
        }
        #expect(received == 25_000 && total == Int64(expected.count))
        #expect(!fileExists(job.path), "no file under the final name after a failure")
        #expect(fileBytes(job.partPath) == Array(expected[..<25_000]))

        let result = try await server.client().download(job)
        #expect(result.resumedFrom == 25_000)
        #expect(fileBytes(job.path) == expected)
        expectNoLeftovers(job)
        #expect(server.requests.last?.header("Range") == "bytes=25000-")
        #expect(server.requests.last?.status == 206)
    }

    @Test("a connection reset mid-body is retried and the file completes byte-identical")
    func resetThenRetried() async throws {
        defer { removeFolder(folder) }
        let (image, _) = try Self.largestImage()
        let server = try Self.server(firstAssetRequest: "reset:after=60000")
        let log = Recorder<RequestLogEntry>()
        let client = try server.client(retry: Self.retrying, log: { log.append($0) })
        let job = DownloadJob(
            DeliveryAPI.downloadRendition(id: image.id, renditionName: "Large", format: "png"), folder: folder,
            name: "large.png")
        let result = try await client.download(job)
        let attempts = log.all
        #expect(attempts.count == 2)
        #expect(attempts.first?.error != nil && attempts.first?.status == nil)
        #expect(attempts.last?.error == nil && attempts.last?.status == (result.resumedFrom > 0 ? 206 : 200))
        // A reset discards what was still in flight, so the retry resumes wherever the part ended.
        #expect(result.resumedFrom == attempts.first?.bytes)
        #expect(result.resumedFrom <= 60_000)
        if result.resumedFrom > 0 {
            #expect(server.requests.last?.header("Range") == "bytes=\(result.resumedFrom)-")
        }
        let bytes = try #require(fileBytes(job.path))
        #expect(ImageMagic(bytes) == .png && Int64(bytes.count) == result.bytes)
        expectNoLeftovers(job)
        #expect(server.log.contains { $0.contains("fault: reset after") })
    }

    @Test("a part whose validator no longer matches is replaced by the whole file")
    func staleValidator() async throws {
        defer { removeFolder(folder) }
        let (image, expected) = try Self.largestImage()
        let server = try SampleServer()
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "stale.jpg")
        _ = FileManager.default.createFile(atPath: job.partPath, contents: Data(repeating: 0xAB, count: 5000))
        _ = FileManager.default.createFile(
            atPath: job.metaPath, contents: Data(#"{"validator":"\"old-etag\"","length":999999}"#.utf8))
        let result = try await server.client().download(job)
        #expect(result.resumedFrom == 0)
        #expect(fileBytes(job.path) == expected)
        expectNoLeftovers(job)
        #expect(server.requests.last?.header("If-Range") == #""old-etag""#)
        #expect(server.requests.last?.status == 200)
    }

    @Test("a part that is already whole is answered 416 and completed without a body")
    func wholePart() async throws {
        defer { removeFolder(folder) }
        let (image, expected) = try Self.largestImage()
        let server = try SampleServer()
        let client = try server.client()
        let first = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "first.jpg")
        let etag = try #require(try await client.download(first).etag)

        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "whole.jpg")
        _ = FileManager.default.createFile(atPath: job.partPath, contents: Data(expected))
        let meta: JSON = ["validator": .string(etag), "length": .int(expected.count)]
        _ = FileManager.default.createFile(atPath: job.metaPath, contents: Data(JSONWriter().bytes(meta)))
        let result = try await client.download(job)
        #expect(result.resumedFrom == Int64(expected.count))
        #expect(fileBytes(job.path) == expected)
        expectNoLeftovers(job)
        #expect(server.requests.last?.status == 416)
    }
}
