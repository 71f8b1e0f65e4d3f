import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import OCEQTestSupport
import Testing

/// The libcurl transport against `LoopbackServer` on 127.0.0.1. Nothing here leaves loopback: the
/// unknown-host case uses a name that the resolver refuses without asking any DNS server.
@Suite("CurlTransport on loopback")
struct CurlTransportTests {
    static let item = #"{"id":"CORE1","type":"Article","name":"First"}"#

    static func client(
        _ server: LoopbackServer, token: String = "t0ken", bearer: String? = "b3arer", retry: RetryPolicy = .none,
        clock: FakeClock = FakeClock(), options: CurlTransport.Options = CurlTransport.Options(),
        maximumJSONSize: Int = 1 << 20,
        log: (@Sendable (RequestLogEntry) -> Void)? = nil, origin: String? = nil
    ) throws -> DeliveryClient {
        var options = options
        options.noProxy = "*"
        if options.connectTimeout > 5 { options.connectTimeout = 5 }
        var configuration = try DeliveryConfiguration(
            url: origin ?? server.origin, channelToken: token, bearerToken: bearer)
        configuration.retry = retry
        configuration.maximumJSONSize = maximumJSONSize
        configuration.requestLog = log
        return DeliveryClient(configuration: configuration, transport: CurlTransport(options: options), clock: clock)
    }

    @Test("JSON requests and downloads all carry the user agent and the bearer token")
    func headersOnEveryRequest() async throws {
        let server = try LoopbackServer { request in
            request.target.contains("/assets/") ? .respond(status: 200, body: [1, 2, 3]) : .text(200, Self.item)
        }
        let client = try Self.client(server)
        _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        _ = try await client.fetchJSON(DeliveryAPI.listAssets())
        _ = try await client.download(
            DownloadJob(DeliveryAPI.downloadNative(id: "CONT1"), folder: temporaryFolder(), name: "n"))
        let requests = server.requests
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.header("User-Agent") == DeliveryKitInfo.userAgent)
            #expect(request.header("Authorization") == "Bearer b3arer")
            #expect(request.target.contains("channelToken=t0ken"))
        }
        #expect(requests[0].target == "/content/published/api/v1.1/items/CORE1?channelToken=t0ken&expand=all")
        #expect(requests[0].header("Accept-Encoding")?.contains("gzip") == true)
        #expect(requests[2].header("Accept-Encoding") == nil)
    }

    @Test("sequential requests reuse one connection")
    func connectionReuse() async throws {
        let server = try LoopbackServer { _ in .text(200, Self.item) }
        let client = try Self.client(server)
        for _ in 0..<5 { _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        #expect(server.requests.count == 5)
        #expect(server.connectionCount == 1)
    }

    @Test("parallel requests all complete on one transport")
    func parallel() async throws {
        let server = try LoopbackServer { request in
            let id = request.target.split(separator: "/").last!.split(separator: "?").first!
            return .text(200, #"{"id":"\#(id)","type":"T"}"#)
        }
        let client = try Self.client(server)
        let ids = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask { try await client.fetch(DeliveryAPI.readAsset(id: "CORE\(index)")).id }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(ids == Set((0..<16).map { "CORE\($0)" }))
    }

    @Test("a 503 with Retry-After is retried after the asked delay")
    func retryAfter() async throws {
        let count = Locked(0)
        let server = try LoopbackServer { _ in
            let n = count.withLock { value -> Int in
                value += 1
                return value
            }
            return n == 1
                ? .text(503, #"{"title":"Service Unavailable"}"#, headers: [("Retry-After", "1")])
                : .text(200, Self.item)
        }
        let clock = FakeClock()
        let log = Recorder<RequestLogEntry>()
        let client = try Self.client(server, retry: RetryPolicy(maxAttempts: 3), clock: clock, log: { log.append($0) })
        #expect(try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")).id == "CORE1")
        #expect(clock.sleeps == [1])
        #expect(log.all.map(\.status) == [503, 200])
        #expect(log.all[1].httpVersion == "1.1")
        #expect(log.all.allSatisfy { !$0.description.contains("t0ken") })
    }

    @Test("the server's error body is decoded")
    func errorBody() async throws {
        let server = try LoopbackServer { _ in
            .text(
                404, #"{"status":404,"title":"Not Found","detail":"Item CORE9 was not found.","o:errorCode":"OCE-404"}"#
            )
        }
        let client = try Self.client(server)
        do throws(DeliveryError) {
            _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE9"))
            Issue.record("expected an error")
        } catch {
            #expect(
                error.description
                    == "Item CORE9 was not found. (HTTP 404 Not Found from GET \(server.origin)/content/published/api/v1.1/items/CORE9?channelToken=REDACTED&expand=all; o:errorCode OCE-404)"
            )
        }
    }

    @Test("malformed JSON, a non-item and an oversized body are distinct errors")
    func badBodies() async throws {
        let server = try LoopbackServer { request in
            if request.target.contains("/items/BAD") { return .text(200, "{\"id\": ") }
            if request.target.contains("/items/LIST") { return .text(200, "[1, 2]") }
            return .text(200, #"{"id":"BIG","pad":""# + String(repeating: "x", count: 5000) + #""}"#)
        }
        let client = try Self.client(server, maximumJSONSize: 1000)
        let base = "\(server.origin)/content/published/api/v1.1/items"
        await #expect(
            throws: DeliveryError.malformedJSON(
                url: "\(base)/BAD?channelToken=REDACTED&expand=all", JSONParseError(at: 7, "unexpected end of input"))
        ) {
            try await client.fetch(DeliveryAPI.readAsset(id: "BAD"))
        }
        await #expect(
            throws: DeliveryError.unexpectedShape(
                url: "\(base)/LIST?channelToken=REDACTED&expand=all",
                ShapeError(path: "", expected: "an item object with a string \"id\"", found: "array of 2"))
        ) { try await client.fetch(DeliveryAPI.readAsset(id: "LIST")) }
        await #expect(
            throws: DeliveryError.responseTooLarge(url: "\(base)/HUGE?channelToken=REDACTED&expand=all", limit: 1000)
        ) {
            try await client.fetch(DeliveryAPI.readAsset(id: "HUGE"))
        }
    }

    @Test("a body cut short is reported with what arrived and what was announced")
    func cutShort() async throws {
        let server = try LoopbackServer { _ in
            .cutShort(status: 200, body: Array(#"{"id":"CO"#.utf8), declaredLength: 100)
        }
        let client = try Self.client(server)
        await #expect(
            throws: DeliveryError.bodyCutShort(
                url: "\(server.origin)/content/published/api/v1.1/items/CORE1?channelToken=REDACTED&expand=all",
                received: 9,
                expected: 100)
        ) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
    }

    @Test("a reset connection is a lost connection, and is retried")
    func reset() async throws {
        let count = Locked(0)
        let server = try LoopbackServer { _ in
            count.withLock { value -> Int in
                value += 1
                return value
            } == 1 ? .reset : .text(200, Self.item)
        }
        let once = try Self.client(server)
        do throws(DeliveryError) {
            _ = try await once.fetch(DeliveryAPI.readAsset(id: "CORE1"))
            Issue.record("expected an error")
        } catch {
            guard case .connectionLost = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        count.withLock { $0 = 0 }
        let retrying = try Self.client(server, retry: RetryPolicy(maxAttempts: 2, random: { 0 }))
        #expect(try await retrying.fetch(DeliveryAPI.readAsset(id: "CORE1")).id == "CORE1")
    }

    @Test("redirects are followed, and a redirect loop is its own error")
    func redirects() async throws {
        let server = try LoopbackServer { request in
            if request.target.contains("/items/MOVED") {
                return .respond(status: 301, headers: [("Location", "/final")])
            }
            return .text(200, Self.item)
        }
        let client = try Self.client(server, options: CurlTransport.Options(maxRedirects: 3))
        #expect(try await client.fetch(DeliveryAPI.readAsset(id: "MOVED")).id == "CORE1")
        #expect(server.requests.last?.target == "/final")
        #expect(server.requests.last?.header("Authorization") == "Bearer b3arer")
        let loopServer = try LoopbackServer { _ in .respond(status: 302, headers: [("Location", "/loop")]) }
        let loopClient = try Self.client(loopServer, options: CurlTransport.Options(maxRedirects: 3))
        let request = DeliveryAPI.readAsset(id: "LOOP")
        await #expect(throws: DeliveryError.redirectLoop(url: try loopClient.prepare(request).redactedURL)) {
            try await loopClient.fetch(request)
        }
        #expect(loopServer.requests.count == 4)
    }

    @Test("an unknown host fails without a DNS query")
    func unknownHost() async throws {
        // A label over 63 bytes: glibc refuses to build the query, so nothing leaves the machine.
        let host = String(repeating: "x", count: 70) + ".invalid"
        let server = try LoopbackServer { _ in .text(200, Self.item) }
        let client = try Self.client(server, origin: "http://\(host)")
        await #expect(
            throws: DeliveryError.unknownHost(
                url: "http://\(host)/content/published/api/v1.1/items/CORE1?channelToken=REDACTED&expand=all",
                host: host)
        ) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
    }

    @Test("a closed port is a refused connection")
    func refused() async throws {
        let server = try LoopbackServer { _ in .text(200, Self.item) }
        let closed = try ClosedPort()
        let client = try Self.client(server, origin: closed.origin)
        await #expect(
            throws: DeliveryError.connectionRefused(
                url: "\(closed.origin)/content/published/api/v1.1/items/CORE1?channelToken=REDACTED&expand=all")
        ) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        withExtendedLifetime(closed) {}
    }

    @Test("TLS to a server that does not speak it is a TLS error")
    func tls() async throws {
        let server = try LoopbackServer { _ in .text(200, Self.item) }
        let client = try Self.client(server, origin: "https://127.0.0.1:\(server.port)")
        do throws(DeliveryError) {
            _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
            Issue.record("expected an error")
        } catch {
            guard case .tls(let url, let detail) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(url.hasPrefix("https://127.0.0.1:\(server.port)/"))
            #expect(!detail.isEmpty)
            #expect(error.description.hasPrefix("TLS error for https://127.0.0.1:"))
        }
    }

    @Test("a stalled transfer times out")
    func lowSpeed() async throws {
        let server = try LoopbackServer { _ in .stall(body: Array("{".utf8), declaredLength: 50, seconds: 4) }
        let client = try Self.client(server, options: CurlTransport.Options(lowSpeedLimit: 1, lowSpeedTime: 1))
        // Without the low-speed limit the server's stall would end in a cut body, not a timeout.
        do throws(DeliveryError) {
            _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
            Issue.record("expected an error")
        } catch {
            guard case .timedOut = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        server.stop()
    }

    @Test("cancelling a task aborts its transfer")
    func cancellation() async throws {
        // Long enough to outlast a starved parallel run (there the 200 ms sleep below once took over 5 s,
        // the stall ended first and the transfer failed as cut short); stopping the server does not wait
        // for it. Without cancellation the stall would end in a cut body, not `.cancelled`.
        let server = try LoopbackServer { _ in .stall(body: [], declaredLength: 50, seconds: 120) }
        let client = try Self.client(server)
        let task = Task { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as DeliveryError) = result, case .cancelled = error else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        server.stop()
    }

    @Test("a cut download is resumed with Range and If-Range and completes intact")
    func resume() async throws {
        let file = sampleBytes(300_000)
        let count = Locked(0)
        let server = try LoopbackServer { request in
            let n = count.withLock { value -> Int in
                value += 1
                return value
            }
            let etag = #""abc123""#
            if let range = request.header("Range"), request.header("If-Range") == etag,
                let start = Int(range.dropFirst(6).dropLast())
            {
                return .respond(
                    status: 206,
                    headers: [("ETag", etag), ("Content-Range", "bytes \(start)-\(file.count - 1)/\(file.count)")],
                    body: Array(file[start...]))
            }
            if n == 1 {
                return .cutShort(
                    status: 200, headers: [("ETag", etag)], body: Array(file[..<120_000]), declaredLength: file.count)
            }
            return .respond(status: 200, headers: [("ETag", etag)], body: file)
        }
        let folder = temporaryFolder()
        let job = DownloadJob(
            DeliveryAPI.downloadRendition(id: "CONT1", renditionName: "Large", format: "jpg"), folder: folder,
            name: "large.jpg")
        let first = try Self.client(server)
        await #expect(throws: DeliveryError.self) { try await first.download(job) }
        #expect(!fileExists(job.path))
        #expect(readFile(job.partPath)?.count == 120_000)
        let result = try await Self.client(server).download(job)
        #expect(result.resumedFrom == 120_000)
        #expect(result.bytes == 300_000)
        #expect(readFile(job.path) == file)
        #expect(server.requests.last?.header("Range") == "bytes=120000-")
        #expect(server.requests.last?.header("If-Range") == #""abc123""#)
        #expect(!fileExists(job.partPath))
    }

    @Test("many downloads in a pool over one transport")
    func pool() async throws {
        let server = try LoopbackServer { request in
            let id = request.target.split(separator: "/")[5]
            return .respond(status: 200, body: Array(repeating: UInt8(id.count), count: 50_000))
        }
        let folder = temporaryFolder()
        let client = try Self.client(server)
        let jobs = (0..<24).map {
            DownloadJob(DeliveryAPI.downloadNative(id: "CONT\($0)"), folder: folder, name: "\($0).bin")
        }
        let results = await client.download(jobs, maxConcurrent: 8)
        #expect(results.allSatisfy { (try? $0.get())?.bytes == 50_000 })
        #expect(server.connectionCount <= 8)
    }
}
