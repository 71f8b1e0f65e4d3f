// The client: turns request values into HTTP exchanges on a `Transport`, with retries, logging,
// decoding and typed errors. A value type; copies share the transport.
//
// The retry loop lives in `exchange`, shared by JSON requests and downloads: each attempt gets a
// fresh sink from the caller (a download re-inspects its `.part` file to resume), statuses the
// caller accepts are handed back, others become `HTTPError`s, and connection failures and the
// retryable statuses are tried again under the `RetryPolicy`.

import DeliveryKit
import FoundationEssentials
import OCEQCore

/// Runs delivery requests.
public struct DeliveryClient: Sendable {
    /// Server, tokens, retry rules and the request log.
    public let configuration: DeliveryConfiguration
    /// Performs the HTTP exchanges.
    public let transport: any Transport
    /// Times and waits for retries.
    public let clock: any RetryClock
    let redactor: Redactor
    /// The member names left out of the objects of every answer this client reads (`skipping(members:)`),
    /// at any depth, checked as JSON but never built; empty reads answers whole.
    public private(set) var skippedMembers: [String] = []
    /// Whether answers are read with their `links` members (the default), whose `href`s are then
    /// redacted as they arrive (`redactLinks`).
    public var readsLinks: Bool { !skippedMembers.contains("links") }
    /// Requests sent ahead of need (`sendAhead`), shared by the copies of this client.
    let answersAhead = AnswersAhead()

    /// A client over `transport` (a new `CurlTransport` when nil).
    public init(
        configuration: DeliveryConfiguration, transport: (any Transport)? = nil,
        clock: any RetryClock = SystemRetryClock()
    ) {
        self.configuration = configuration
        self.transport = transport ?? CurlTransport()
        self.clock = clock
        self.redactor = configuration.redactor
    }

    /// This client, reading answers without their `links` members (an item's `links`, a rendition
    /// format's, come back empty): for a caller that reads the data of many items and never their
    /// links (a download's listing). Links were 60 % of the bytes of a page of images; they are
    /// checked as JSON but not built, and leave no `href` to redact (callgrind, `download` of 74
    /// images: building and redacting them was half the cost of reading the page).
    public func skippingLinks() -> DeliveryClient {
        skipping(members: ["links"])
    }

    /// This client, reading answers without their members called one of `names`, at any depth (they
    /// come back missing): for a caller that never reads them. They are checked as JSON but not built.
    /// This replaces what an earlier `skipping` or `skippingLinks` left out. The catalog read drops
    /// `properties` (two thirds of its bytes); a download's listing drops `links` and `metadata` (the
    /// width and height of every format of every rendition; callgrind, 500 images: a third of reading
    /// the page).
    public func skipping(members names: [String]) -> DeliveryClient {
        var copy = self
        copy.skippedMembers = names
        return copy
    }

    /// The URL and headers `request` would be sent with; no network.
    public func prepare<R: DeliveryRequest>(_ request: R) throws(DeliveryError) -> PreparedRequest {
        prepare(try request.endpoint(), accept: "application/json")
    }

    /// The URL and headers a download would be sent with; no network.
    public func prepare(download request: some DownloadRequest) throws(DeliveryError) -> PreparedRequest {
        prepare(try request.endpoint(), accept: nil)
    }

    func prepare(_ endpoint: Endpoint, accept: String?) -> PreparedRequest {
        let (url, redacted) = endpoint.url(on: configuration.server, defaultToken: configuration.channelToken)
        var headers = [HTTPHeader("User-Agent", configuration.userAgent)]
        if let accept { headers.append(HTTPHeader("Accept", accept)) }
        if let bearer = configuration.bearerToken, !bearer.isEmpty {
            headers.append(HTTPHeader("Authorization", "Bearer \(bearer.revealedForRequest)"))
        }
        return PreparedRequest(method: "GET", url: url, redactedURL: redacted, headers: headers)
    }

    /// Sends `request` and decodes its response.
    nonisolated(nonsending) public func fetch<R: DeliveryRequest>(
        _ request: R
    ) async throws(DeliveryError) -> R.Response {
        let prepared = try prepare(request)
        if let response = await answerAhead(prepared, as: request) { return response }
        return try decode(request, try await sendJSON(prepared), prepared)
    }

    /// `json`, the answer to `request` (sent as `prepared`), decoded.
    func decode<R: DeliveryRequest>(
        _ request: R, _ json: JSON, _ prepared: PreparedRequest
    ) throws(DeliveryError) -> R.Response {
        do {
            return try request.decode(json)
        } catch {
            throw .unexpectedShape(url: prepared.redactedURL, error)
        }
    }

    /// Sends `request` and returns the parsed JSON body without decoding it into a model.
    nonisolated(nonsending) public func fetchJSON<R: DeliveryRequest>(
        _ request: R
    ) async throws(DeliveryError) -> JSON {
        try await sendJSON(try prepare(request))
    }

    /// Sends `prepared` and returns its parsed body, its links' tokens redacted.
    nonisolated(nonsending) func sendJSON(_ prepared: PreparedRequest) async throws(DeliveryError) -> JSON {
        let body = try await sendForJSON(prepared)
        do {
            var json = try JSON.parse(body, skipping: skippedMembers)
            if readsLinks { Self.redactLinks(in: &json) }
            return json
        } catch {
            throw .malformedJSON(url: prepared.redactedURL, error)
        }
    }

    /// Sends `prepared` and returns its body (not empty), not yet parsed.
    nonisolated(nonsending) func sendForJSON(_ prepared: PreparedRequest) async throws(DeliveryError) -> [UInt8] {
        let limit = configuration.maximumJSONSize
        let url = prepared.redactedURL
        let (_, sink) = try await exchange(prepared, accept: { (200..<300).contains($0) }) { _ in
            (
                HTTPRequest(url: prepared.url, headers: prepared.headers, acceptCompressed: true),
                MemorySink(limit: limit, url: url)
            )
        }
        if sink.body.isEmpty { throw .malformedJSON(url: url, JSONParseError(at: 0, "empty body")) }
        return sink.body
    }

    /// Shows the `channelToken` parameter of every link's `href` in `json` as `REDACTED`: servers
    /// build each link with the token of the request, so the URL is redacted as it arrives (the
    /// client builds its own URLs and never follows an href). Only `href`s inside `links` arrays
    /// change; no other text of the answer is touched. Each container is consumed out of its parent,
    /// changed where it stands and put back, so a freshly parsed answer is walked once and never
    /// copied (rebuilding every object into a new dictionary cost more than parsing the page:
    /// callgrind, a 50-item page, 3.2 M instructions against 1.4 M for the parse), and only members
    /// that are containers are entered (entering every member, and switching on a copy of each
    /// container, cost 1.3 M on that page).
    static func redactLinks(in json: inout JSON) {
        switch consume json {
        case .object(var members):
            var index = members.startIndex
            while index != members.endIndex {
                if members.values[index].isContainer {
                    if members.keys[index] == "links" {
                        redactHrefs(in: &members.values[index])
                    } else {
                        redactLinks(in: &members.values[index])
                    }
                }
                members.formIndex(after: &index)
            }
            json = .object(members)
        case .array(var elements):
            for position in elements.indices where elements[position].isContainer {
                redactLinks(in: &elements[position])
            }
            json = .array(elements)
        case let scalar:
            json = scalar
        }
    }

    /// The members of a `links` array: each link's `href` redacted, then the link walked like any object.
    private static func redactHrefs(in links: inout JSON) {
        switch consume links {
        case .array(var elements):
            for position in elements.indices {
                if case .object(var members) = elements[position], case .string(let href)? = members["href"] {
                    elements[position] = .null
                    let redacted = Redactor.redactTokenParameters(href)
                    if redacted != href { members["href"] = .string(redacted) }
                    elements[position] = .object(members)
                }
                if elements[position].isContainer { redactLinks(in: &elements[position]) }
            }
            links = .array(elements)
        case let other:
            links = other
            redactLinks(in: &links)
        }
    }

    /// Every page of a list, fetched one at a time as the sequence is iterated.
    public func pages<R: PagedRequest>(_ request: R) -> PageSequence<R> {
        PageSequence(client: self, request: request)
    }

    /// Every item of a list, one page in memory at a time.
    public func items<R: PagedRequest>(_ request: R) -> ItemSequence<R> {
        ItemSequence(pages: pages(request))
    }

    // MARK: - The exchange loop

    nonisolated(nonsending) func exchange<Sink: ExchangeSink>(
        _ prepared: PreparedRequest, accept: (Int) -> Bool,
        attempt makeAttempt: (Int) throws(DeliveryError) -> (HTTPRequest, Sink)
    ) async throws(DeliveryError) -> (HTTPResponseHead, Sink) {
        let policy = configuration.retry
        let start = clock.now()
        var attempt = 0
        while true {
            attempt += 1
            let (request, sink) = try makeAttempt(attempt)
            let began = ContinuousClock.now
            let result: Result<HTTPResponseHead, DeliveryError>
            do {
                result = .success(try await transport.perform(request, into: sink))
            } catch {
                result = .failure(deliveryError(error, sink: sink, prepared: prepared))
            }
            let milliseconds = (ContinuousClock.now - began).seconds * 1000
            switch result {
            case .success(let head):
                log(prepared, head.status, sink.bodyBytes, milliseconds, attempt, nil, head.httpVersion)
                if accept(head.status) { return (head, sink) }
                let retryAfter = head.header("Retry-After").flatMap { RetryAfter.seconds($0, now: clock.wallClock()) }
                let error = HTTPError(
                    method: prepared.method, url: prepared.redactedURL, status: head.status, body: sink.errorBody,
                    retryAfter: retryAfter, redactor: redactor)
                if policy.retryableStatuses.contains(head.status),
                    let wait = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, elapsed: clock.now() - start)
                {
                    try await sleep(wait, prepared)
                    continue
                }
                throw .http(error)
            case .failure(let error):
                log(prepared, nil, sink.bodyBytes, milliseconds, attempt, error.description, nil)
                if error.isConnectionFailure,
                    let wait = policy.delay(afterAttempt: attempt, retryAfter: nil, elapsed: clock.now() - start)
                {
                    try await sleep(wait, prepared)
                    continue
                }
                throw error
            }
        }
    }

    nonisolated(nonsending) private func sleep(
        _ seconds: Double, _ prepared: PreparedRequest
    ) async throws(DeliveryError) {
        do {
            try await clock.sleep(seconds: seconds)
        } catch {
            throw .cancelled(url: prepared.redactedURL)
        }
    }

    private func log(
        _ prepared: PreparedRequest, _ status: Int?, _ bytes: Int64, _ milliseconds: Double, _ attempt: Int,
        _ error: String?, _ httpVersion: String?
    ) {
        configuration.requestLog?(
            RequestLogEntry(
                method: prepared.method, url: prepared.redactedURL, status: status, bytes: bytes,
                milliseconds: milliseconds, attempt: attempt, error: error, httpVersion: httpVersion))
    }

    /// The typed error for a transport failure, with the URL and message redacted.
    func deliveryError(_ error: TransportError, sink: some ExchangeSink, prepared: PreparedRequest) -> DeliveryError {
        let url = prepared.redactedURL
        let message = redactor.redact(error.message).singleLine
        switch error.kind {
        case .aborted: return sink.failure ?? .transport(url: url, code: 23, detail: message)
        case .cancelled: return .cancelled(url: url)
        case .unknownHost: return .unknownHost(url: url, host: configuration.server.host)
        case .connectionRefused: return .connectionRefused(url: url)
        case .connectionLost: return .connectionLost(url: url, detail: message)
        case .timedOut: return .timedOut(url: url, detail: message)
        case .tls: return .tls(url: url, detail: message)
        case .redirectLoop: return .redirectLoop(url: url)
        case .bodyCutShort:
            return .bodyCutShort(url: url, received: error.bytesReceived, expected: error.head?.contentLength)
        case .invalidURL: return .invalidRequest("invalid URL \(url): \(message)")
        case .other(let code): return .transport(url: url, code: code, detail: message)
        }
    }
}

/// A sink the exchange loop can ask about the outcome.
protocol ExchangeSink: ResponseSink {
    /// The error the sink threw, if it did.
    var failure: DeliveryError? { get }
    /// Body bytes received in this attempt.
    var bodyBytes: Int64 { get }
    /// The body of a non-accepted response (at most 64 KiB).
    var errorBody: [UInt8] { get }
}

/// Collects a body in memory, up to a limit (error bodies are cut at 64 KiB without failing).
final class MemorySink: ExchangeSink, @unchecked Sendable {
    static let errorBodyLimit = 64 << 10

    let limit: Int
    let url: String
    private(set) var body: [UInt8] = []
    private(set) var failure: DeliveryError?
    private var isSuccess = true

    init(limit: Int, url: String) {
        self.limit = limit
        self.url = url
    }

    var bodyBytes: Int64 { Int64(body.count) }
    var errorBody: [UInt8] { body }

    func receiveHead(_ head: HTTPResponseHead) throws {
        isSuccess = (200..<300).contains(head.status)
        body.removeAll(keepingCapacity: true)
        if isSuccess, let length = head.contentLength, length > 0 { body.reserveCapacity(Int(min(length, 1 << 22))) }
    }

    func receiveBody(_ chunk: UnsafeRawBufferPointer) throws {
        if !isSuccess {
            body.append(contentsOf: chunk.prefix(max(0, MemorySink.errorBodyLimit - body.count)))
            return
        }
        guard body.count + chunk.count <= limit else {
            let error = DeliveryError.responseTooLarge(url: url, limit: limit)
            failure = error
            throw error
        }
        body.append(contentsOf: chunk)
    }
}

extension DeliveryClient: CustomStringConvertible, CustomDebugStringConvertible {
    /// The configuration, redacted.
    public var description: String { "DeliveryClient(\(configuration))" }

    public var debugDescription: String { description }
}

extension JSON {
    /// Whether this is an object or an array, the values `redactLinks` enters.
    fileprivate var isContainer: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }
}
