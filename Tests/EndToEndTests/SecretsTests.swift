import ChannelServer
import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// A distinctive channel token and bearer, used for real against the server, must not appear in any
/// error message, request-log line, printed value, or line of the server's access and fault logs.
@Suite("End to end: secrets stay out of messages and logs")
struct SecretsTests {
    /// Characters that are percent-encoded in a query, so the encoded form is checked too.
    static let token = "tok+SECRET/9f3e1d"
    static let bearer = "bear-SECRET-2c7a55"
    static let wrongBearer = "wrong-SECRET-b3ar"

    static func leaks(_ text: String) -> [String] {
        [token, bearer, wrongBearer, "tok%2BSECRET/9f3e1d", "SECRET"].filter { text.contains($0) }
    }

    @Test("errors of every kind, request-log lines and descriptions never show the token or bearer")
    func nothingLeaks() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let server = try SampleServer(
            token: Self.token, bearer: Self.bearer,
            faults: FaultPlan(spec: "503:path=/taxonomies,truncate:path=/assets", pathPrefix: "/"))
        let log = Recorder<RequestLogEntry>()
        let client = try server.client(retry: RetryPolicy(maxAttempts: 2, random: { 0 }), log: { log.append($0) })
        var texts: [String] = []
        func record(_ error: DeliveryError?) {
            guard let error else { return }
            texts += [error.description, String(reflecting: error), "\(error)"]
            if let url = error.url { texts.append(url) }
        }

        // Success: the secrets are really in use.
        let page = try await client.fetch(DeliveryAPI.listAssets().limit(5))
        #expect(page.items.count == 5)
        _ = try await client.fetch(DeliveryAPI.readAsset(id: page.items[0].id))

        // A 404, exhausted 503s, a cut download, a 401 with a wrong bearer, a refused connection.
        record(await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.readAsset(id: "NOPE")) })
        record(await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.listTaxonomies()) })
        let image = try #require(try SampleAsset.images().first)
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "cut.jpg")
        let cut = await #expect(throws: DeliveryError.self) { try await client.download(job) }
        if case .bodyCutShort? = cut {} else { Issue.record("expected bodyCutShort, got \(String(describing: cut))") }
        record(cut)
        let wrong = try server.client(bearer: Self.wrongBearer, log: { log.append($0) })
        let unauthorized = await #expect(throws: DeliveryError.self) { try await wrong.fetch(DeliveryAPI.listAssets()) }
        if case .http(let http)? = unauthorized { #expect(http.status == 401) }
        record(unauthorized)
        let closedPort = try ClosedPort()
        defer { withExtendedLifetime(closedPort) {} }
        var closed = try DeliveryConfiguration(
            url: closedPort.origin, channelToken: Self.token, bearerToken: Self.bearer)
        closed.retry = .none
        closed.requestLog = { log.append($0) }
        let refused = DeliveryClient(configuration: closed, transport: CurlTransport(), clock: FakeClock())
        let refusal = await #expect(throws: DeliveryError.self) { try await refused.fetch(DeliveryAPI.listAssets()) }
        if case .connectionRefused? = refusal {
        } else {
            Issue.record("expected connectionRefused, got \(String(describing: refusal))")
        }
        record(refusal)

        // Printed values.
        let prepared = try client.prepare(download: DeliveryAPI.downloadNative(id: image.id))
        texts += [
            prepared.description, String(reflecting: prepared), prepared.redactedURL,
            prepared.redactedHeaders.map(\.description).joined(separator: "\n"),
            String(describing: client.configuration), String(reflecting: client.configuration),
            String(reflecting: client),
        ]

        let entries = log.all
        #expect(entries.count >= 8)
        #expect(entries.contains { $0.error != nil } && entries.contains { $0.status == 401 })
        texts += entries.map(\.description) + entries.map { String(reflecting: $0) }
        texts += server.log
        #expect(server.log.contains { $0.contains("channelToken=REDACTED") })
        #expect(server.log.contains { $0.hasPrefix("fault: truncate") })

        for text in texts {
            #expect(Self.leaks(text).isEmpty, "leaked in: \(text)")
        }
        // The secrets did go over the wire, where they belong.
        let seen = server.requests
        #expect(seen.contains { $0.target.contains("channelToken=tok%2BSECRET/9f3e1d") })
        #expect(seen.filter { $0.header("Authorization") == "Bearer \(Self.bearer)" }.count >= 5)
    }
}
