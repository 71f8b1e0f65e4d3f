import DeliveryKit
import DeliveryTransport
import FoundationEssentials
import OCEQCore
import Testing

@Suite("DeliveryClient over a stub transport")
struct ClientTests {
    static let item = #"{"id":"CORE1","type":"Article","name":"First"}"#

    /// A stub answering from a script of replies, one per request, the last one repeated.
    static func scripted(_ replies: [StubTransport.Reply]) -> StubTransport {
        let index = Locked(0)
        return StubTransport { _ in
            let i = index.withLock { value -> Int in
                defer { value += 1 }
                return value
            }
            return replies[min(i, replies.count - 1)]
        }
    }

    static let retrying = RetryPolicy(
        maxAttempts: 4, initialBackoff: 0.5, maxBackoff: 4, maxTotalTime: 30, random: { 0.5 })

    @Test("every request carries the user agent, Accept and the bearer token")
    func headers() async throws {
        let stub = Self.scripted([.json(Self.item)])
        let client = try makeClient(stub, bearer: "b3arer")
        _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        _ = try await client.fetchJSON(DeliveryAPI.listTaxonomies())
        for request in stub.requests {
            #expect(request.header("Authorization") == "Bearer b3arer")
            #expect(request.header("User-Agent") == DeliveryKitInfo.userAgent)
            #expect(request.header("Accept") == "application/json")
            #expect(request.acceptCompressed)
        }
    }

    @Test("a 503 with Retry-After waits as told, then succeeds; every attempt is logged")
    func retryAfter() async throws {
        let log = Recorder<RequestLogEntry>()
        let clock = FakeClock()
        let stub = Self.scripted([
            .response(status: 503, headers: [HTTPHeader("Retry-After", "2")], body: Array("busy".utf8)),
            .json(Self.item),
        ])
        let client = try makeClient(stub, retry: Self.retrying, clock: clock, log: { log.append($0) })
        let asset = try await client.fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(asset.name == "First")
        #expect(clock.sleeps == [2])
        #expect(log.all.map(\.status) == [503, 200])
        #expect(log.all.map(\.attempt) == [1, 2])
        #expect(log.all[1].bytes == Int64(Self.item.utf8.count))
        #expect(log.all.allSatisfy { $0.url.contains("channelToken=REDACTED") && $0.method == "GET" })
    }

    @Test("Retry-After as an HTTP date is measured against the wall clock")
    func retryAfterDate() async throws {
        let clock = FakeClock(wallOrigin: Date(timeIntervalSince1970: 784_111_770))  // Sun, 06 Nov 1994 08:49:30 GMT
        let stub = Self.scripted([
            .response(status: 429, headers: [HTTPHeader("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]),
            .json(Self.item),
        ])
        _ = try await makeClient(stub, retry: Self.retrying, clock: clock).fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(clock.sleeps == [7])
    }

    @Test("connection failures back off exponentially with full jitter")
    func backoff() async throws {
        let clock = FakeClock()
        let stub = Self.scripted([
            .failure(.connectionRefused), .failure(.connectionLost), .failure(.timedOut), .json(Self.item),
        ])
        _ = try await makeClient(stub, retry: Self.retrying, clock: clock).fetch(DeliveryAPI.readAsset(id: "CORE1"))
        #expect(clock.sleeps == [0.25, 0.5, 1.0])
        #expect(stub.requests.count == 4)
    }

    @Test("attempts are bounded and the last error is thrown")
    func bounded() async throws {
        let clock = FakeClock()
        let stub = Self.scripted([
            .response(status: 500, body: Array(#"{"title":"Internal Server Error","status":500}"#.utf8))
        ])
        let client = try makeClient(stub, retry: Self.retrying, clock: clock)
        await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        #expect(stub.requests.count == 4)
        #expect(clock.sleeps.count == 3)
    }

    @Test("the total time bounds retries, including a long Retry-After")
    func totalTime() async throws {
        let clock = FakeClock()
        let stub = Self.scripted([.response(status: 503, headers: [HTTPHeader("Retry-After", "120")])])
        let client = try makeClient(stub, retry: Self.retrying, clock: clock)
        await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        #expect(stub.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(
        "client errors, unknown hosts, TLS errors and bad JSON are not retried",
        arguments: [
            StubTransport.Reply.response(status: 404), .response(status: 400), .failure(.unknownHost), .failure(.tls),
            .failure(.redirectLoop), .json("{oops"), .json("[1]"),
        ])
    func notRetried(reply: StubTransport.Reply) async throws {
        let stub = Self.scripted([reply])
        let client = try makeClient(stub, retry: Self.retrying)
        await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        #expect(stub.requests.count == 1)
    }

    @Test("transport failures become distinct typed errors naming the redacted URL")
    func errorMapping() async throws {
        let url = "http://localhost:2112/content/published/api/v1.1/items/CORE1?channelToken=REDACTED&expand=all"
        let cases: [(StubTransport.Reply, DeliveryError)] = [
            (
                .failure(.unknownHost, message: "Could not resolve host: localhost"),
                .unknownHost(url: url, host: "localhost")
            ),
            (.failure(.connectionRefused), .connectionRefused(url: url)),
            (
                .failure(.connectionLost, message: "Recv failure: Connection reset by peer"),
                .connectionLost(url: url, detail: "Recv failure: Connection reset by peer")
            ),
            (.failure(.tls, message: "SSL certificate problem"), .tls(url: url, detail: "SSL certificate problem")),
            (.failure(.redirectLoop), .redirectLoop(url: url)),
            (.failure(.timedOut, message: "slow"), .timedOut(url: url, detail: "slow")),
            (
                .cutShort(
                    status: 200, headers: [HTTPHeader("Content-Length", "20")], partialBody: Array("{\"id\":".utf8),
                    failure: .bodyCutShort),
                .bodyCutShort(url: url, received: 6, expected: 20)
            ),
            (.json("{\"id\": 1,}"), .malformedJSON(url: url, JSONParseError(at: 9, "expected a member name"))),
            (
                .json("[]"),
                .unexpectedShape(
                    url: url, ShapeError(path: "", expected: "an item object with a string \"id\"", found: "array of 0")
                )
            ),
        ]
        for (reply, expected) in cases {
            let client = try makeClient(Self.scripted([reply]))
            await #expect(throws: expected) { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        }
    }

    @Test("server error bodies are decoded into status, title, detail and o:errorCode")
    func serverError() async throws {
        let body = #"""
            {"type":"https://example.com/errors","title":"Not Found","status":404,
             "detail":"No item CORE9 on channel with channelToken=sekrit.","o:errorCode":"OCE-DELIVERY-404",
             "o:errorDetails":[{"detail":"really not there"}]}
            """#
        let client = try makeClient(Self.scripted([.response(status: 404, body: Array(body.utf8))]), token: "sekrit")
        do {
            _ = try await client.fetch(DeliveryAPI.readAsset(id: "CORE9"))
            Issue.record("expected an error")
        } catch {
            guard case .http(let http) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(http.status == 404)
            #expect(http.title == "Not Found")
            #expect(http.detail == "No item CORE9 on channel with channelToken=REDACTED.")
            #expect(http.errorCode == "OCE-DELIVERY-404")
            #expect(http.details == ["really not there"])
            #expect(
                error.description
                    == "No item CORE9 on channel with channelToken=REDACTED. (HTTP 404 Not Found from GET http://localhost:2112/content/published/api/v1.1/items/CORE9?channelToken=REDACTED&expand=all; o:errorCode OCE-DELIVERY-404)"
            )
        }
    }

    @Test("a non-JSON error body is kept as one redacted line")
    func textErrorBody() async throws {
        let client = try makeClient(
            Self.scripted([.response(status: 403, body: Array("Channel Token sekrit is\nincorrect or missing".utf8))]),
            token: "sekrit")
        await #expect(
            throws: DeliveryError.http(
                HTTPError(
                    url:
                        "http://localhost:2112/content/published/api/v1.1/taxonomies?channelToken=REDACTED&limit=100&offset=0&totalResults=true",
                    status: 403, body: "Channel Token REDACTED is incorrect or missing"))
        ) { try await client.fetch(DeliveryAPI.listTaxonomies()) }
    }

    @Test("no message or log line contains the channel token or the bearer token")
    func redaction() async throws {
        let log = Recorder<RequestLogEntry>()
        let stub = Self.scripted([
            .failure(.connectionLost, message: "reset while fetching ?channelToken=t0ken&x (Bearer s3cret)"),
            .response(status: 500, body: Array(#"{"detail":"token t0ken / s3cret"}"#.utf8)),
        ])
        let client = try makeClient(
            stub, token: "t0ken", bearer: "s3cret", retry: Self.retrying, log: { log.append($0) })
        do {
            _ = try await client.fetch(DeliveryAPI.listAssets())
        } catch {
            #expect(!error.description.contains("t0ken"))
            #expect(!error.description.contains("s3cret"))
        }
        #expect(log.all.count == 4)
        for entry in log.all {
            #expect(!entry.description.contains("t0ken"))
            #expect(!entry.description.contains("s3cret"))
        }
        #expect(log.all[0].error?.contains("channelToken=REDACTED") == true)
    }

    @Test("the redactor hides secrets, their encoded forms and any channelToken value")
    func redactor() {
        let redactor = Redactor(secrets: ["a+b", "s3cret", nil, ""])
        #expect(redactor.redact("x a+b y a%2Bb s3cret") == "x REDACTED y REDACTED REDACTED")
        #expect(redactor.redact("GET /items?ChannelToken=other&limit=1") == "GET /items?ChannelToken=REDACTED&limit=1")
        #expect(redactor.redact("nothing here") == "nothing here")
    }

    @Test("cancelling while waiting to retry stops with .cancelled")
    func cancelled() async throws {
        let stub = Self.scripted([.failure(.connectionRefused)])
        let client = try makeClient(
            stub, retry: RetryPolicy(maxAttempts: 3, initialBackoff: 30, maxTotalTime: 100, random: { 1 }),
            clock: FakeClock())
        let task = Task { try await client.fetch(DeliveryAPI.readAsset(id: "CORE1")) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as DeliveryError) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        switch error {
        case .cancelled, .connectionRefused: break
        default: Issue.record("unexpected \(error)")
        }
    }
}

@Suite("Retry policy and Retry-After")
struct RetryPolicyTests {
    @Test("backoff caps double up to the maximum")
    func caps() {
        let policy = RetryPolicy(initialBackoff: 0.5, maxBackoff: 3)
        #expect((1...5).map(policy.backoffCap(retry:)) == [0.5, 1, 2, 3, 3])
    }

    @Test("full jitter draws between 0 and the cap")
    func jitter() {
        #expect(RetryPolicy(initialBackoff: 2, random: { 0 }).delay(afterAttempt: 1, retryAfter: nil, elapsed: 0) == 0)
        #expect(
            RetryPolicy(initialBackoff: 2, random: { 0.75 }).delay(afterAttempt: 2, retryAfter: nil, elapsed: 0) == 3)
        let real = RetryPolicy(initialBackoff: 1, maxBackoff: 1)
        for _ in 0..<100 {
            let delay = real.delay(afterAttempt: 1, retryAfter: nil, elapsed: 0)!
            #expect(delay >= 0 && delay <= 1)
        }
    }

    @Test("attempts and total time bound the retries")
    func bounds() {
        let policy = RetryPolicy(maxAttempts: 3, maxTotalTime: 10, random: { 1 })
        #expect(policy.delay(afterAttempt: 2, retryAfter: nil, elapsed: 0) != nil)
        #expect(policy.delay(afterAttempt: 3, retryAfter: nil, elapsed: 0) == nil)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 9, elapsed: 0) == 9)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 9, elapsed: 2) == nil)
        #expect(RetryPolicy.none.delay(afterAttempt: 1, retryAfter: nil, elapsed: 0) == nil)
    }

    @Test(
        "Retry-After in seconds and the three HTTP date forms",
        arguments: [
            ("120", 120.0), (" 0 ", 0), ("Sun, 06 Nov 1994 08:49:37 GMT", 7), ("Sunday, 06-Nov-94 08:49:37 GMT", 7),
            ("Sun Nov  6 08:49:37 1994", 7), ("Sun, 06 Nov 1994 08:49:00 GMT", 0),
        ])
    func retryAfter(text: String, seconds: Double) {
        let now = Date(timeIntervalSince1970: 784_111_770)
        #expect(RetryAfter.seconds(text, now: now) == seconds)
    }

    @Test(
        "invalid Retry-After values are ignored", arguments: ["-1", "soon", "1.5", "Sun, 32 Nov 1994 08:49:37 GMT", ""])
    func invalidRetryAfter(text: String) {
        #expect(RetryAfter.seconds(text, now: Date()) == nil)
    }
}

@Suite("Paging")
struct PagingTests {
    /// A stub channel of `total` items answering `offset`/`limit` like the API.
    static func channel(total: Int, reportHasMore: Bool = true) -> StubTransport {
        StubTransport { request in
            let query = request.url.split(separator: "?").last.map(String.init) ?? ""
            var values: [String: Int] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let number = Int(parts[1]) { values[String(parts[0])] = number }
            }
            let offset = values["offset"] ?? 0
            let limit = values["limit"] ?? 100
            let ids = offset < total ? Array(offset..<min(total, offset + limit)) : []
            let items = ids.map { #"{"id":"CORE\#($0)","type":"T","name":"n\#($0)"}"# }.joined(separator: ",")
            let hasMore = reportHasMore ? "\(offset + ids.count < total)" : "true"
            return .json(
                #"{"hasMore":\#(hasMore),"offset":\#(offset),"count":\#(ids.count),"limit":\#(limit),"totalResults":\#(total),"items":[\#(items)]}"#
            )
        }
    }

    @Test("pages walk offset by count across three pages, one request per page")
    func threePages() async throws {
        let stub = Self.channel(total: 7)
        let client = try makeClient(stub)
        var seen: [[String]] = []
        for try await page in client.pages(DeliveryAPI.listAssets().limit(3)) {
            seen.append(page.items.map(\.id))
        }
        #expect(seen == [["CORE0", "CORE1", "CORE2"], ["CORE3", "CORE4", "CORE5"], ["CORE6"]])
        let queries = stub.requests.map { String($0.url.split(separator: "?")[1]) }
        #expect(
            queries == [
                "channelToken=123&limit=3&offset=0&totalResults=true",
                "channelToken=123&limit=3&offset=3&totalResults=true",
                "channelToken=123&limit=3&offset=6&totalResults=true",
            ])
    }

    @Test("items flatten the pages lazily")
    func items() async throws {
        let stub = Self.channel(total: 5)
        let client = try makeClient(stub)
        var iterator = client.items(DeliveryAPI.listAssets().limit(2)).makeAsyncIterator()
        #expect(try await iterator.next()?.id == "CORE0")
        #expect(stub.requests.count == 1)
        var rest: [String] = []
        while let item = try await iterator.next() { rest.append(item.id) }
        #expect(rest == ["CORE1", "CORE2", "CORE3", "CORE4"])
        #expect(stub.requests.count == 3)
    }

    @Test("never more than 500 per page, and limit 0 pages by the default")
    func limits() async throws {
        let stub = Self.channel(total: 1)
        let client = try makeClient(stub)
        var request = DeliveryAPI.listTaxonomies()
        request.parameters.values["limit"] = "5000"
        for try await _ in client.pages(request) {}
        for try await _ in client.pages(DeliveryAPI.listTaxonomies().limit(0)) {}
        #expect(stub.requests.map { $0.url.contains("limit=500&") } == [true, false])
        #expect(stub.requests[1].url.contains("limit=100&"))
    }

    @Test("a server that always says hasMore still stops at totalResults or an empty page")
    func stops() async throws {
        let stub = Self.channel(total: 4, reportHasMore: false)
        let client = try makeClient(stub)
        var count = 0
        for try await page in client.pages(DeliveryAPI.listAssets().limit(2)) { count += page.count }
        #expect(count == 4)
        #expect(stub.requests.count == 2)
    }

    @Test("a page starts where the request says")
    func startingOffset() async throws {
        let stub = Self.channel(total: 10)
        var ids: [String] = []
        for try await item in try makeClient(stub).items(DeliveryAPI.listAssets().starting(at: 8).limit(5)) {
            ids.append(item.id)
        }
        #expect(ids == ["CORE8", "CORE9"])
    }
}

@Suite("Values holding secrets print them redacted")
struct SecretPrintingTests {
    @Test("requests, configurations, endpoints and parameters")
    func printing() throws {
        let configuration = try DeliveryConfiguration(url: "https://h", channelToken: "t0ken", bearerToken: "s3cret")
        let client = DeliveryClient(configuration: configuration, transport: StubTransport { _ in .json("{}") })
        let read = DeliveryAPI.readAsset(id: "CORE1").channelToken("t0ken")
        let prepared = try client.prepare(read)
        let request = HTTPRequest(url: prepared.url, headers: prepared.headers)
        let texts = [
            "\(configuration)", String(reflecting: configuration), "\(prepared)", String(reflecting: prepared),
            "\(request)",
            String(reflecting: request), "\(try read.endpoint())", String(reflecting: try read.endpoint()),
            "\(read.parameters)",
            String(reflecting: read.parameters), "\(client)", String(reflecting: client),
        ]
        for text in texts {
            #expect(!text.contains("t0ken"), "\(text)")
            #expect(!text.contains("s3cret"), "\(text)")
        }
        #expect("\(request)" == "GET https://h/content/published/api/v1.1/items/CORE1?channelToken=REDACTED&expand=all")
    }
}
