// The seam between the client and the network. A transport performs one HTTP exchange, without
// retries, and streams the body into a sink as it arrives; the client decides everything else
// (retries, decoding, files). `CurlTransport` (in DeliveryTransport) is the real one, `StubTransport`
// answers from a closure for tests.
import OCEQCore

/// One HTTP header.
public struct HTTPHeader: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name): \(value)" }

    /// Header names compared ignoring ASCII case (field names are ASCII tokens), without the
    /// allocations of `lowercased()`: a download looks up several headers.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8
        let y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            let lp = p >= 0x41 && p <= 0x5A ? p | 0x20 : p
            let lq = q >= 0x41 && q <= 0x5A ? q | 0x20 : q
            if lp != lq { return false }
        }
        return true
    }
}

/// A request for a transport: always a complete URL, never a body.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET` for everything the delivery API serves.
    public var method: String
    /// The full URL, secrets included; never print it (use the client's redacted form).
    public var url: String
    /// Headers sent as they are.
    public var headers: [HTTPHeader]
    /// Ask for a compressed body (JSON); downloads keep the bytes as stored.
    public var acceptCompressed: Bool
    /// The body of a POST (GraphQL); nil for GET.
    public var body: [UInt8]? = nil

    public init(method: String = "GET", url: String, headers: [HTTPHeader] = [], acceptCompressed: Bool = false) {
        self.method = method
        self.url = url
        self.headers = headers
        self.acceptCompressed = acceptCompressed
    }

    /// The value of the first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { HTTPHeader.sameName($0.name, name) }?.value
    }
}

/// The status line and headers of the final response (after redirects).
public struct HTTPResponseHead: Sendable, Hashable {
    /// The status of the final response.
    public var status: Int
    /// Its headers, in order.
    public var headers: [HTTPHeader]
    /// `1.1`, `2`, `3`, when known.
    public var httpVersion: String?

    public init(status: Int, headers: [HTTPHeader] = [], httpVersion: String? = nil) {
        self.status = status
        self.headers = headers
        self.httpVersion = httpVersion
    }

    /// The value of the last header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.last { HTTPHeader.sameName($0.name, name) }?.value
    }

    /// `Content-Length` as a number.
    public var contentLength: Int64? { header("Content-Length").flatMap { Int64($0.trimmedWhitespace) } }
}

/// Receives a response as it arrives. A transport calls `receiveHead` once (before any body
/// byte, also for an empty body) and then `receiveBody` for each chunk, serially, from one
/// thread; a throw from either aborts the transfer and the transport throws `.aborted`.
public protocol ResponseSink: AnyObject, Sendable {
    func receiveHead(_ head: HTTPResponseHead) throws
    func receiveBody(_ chunk: UnsafeRawBufferPointer) throws
}

/// Why a transport could not complete an exchange.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classes of failure the client maps to `DeliveryError` cases.
    public enum Kind: Sendable, Hashable {
        case unknownHost
        case connectionRefused
        /// Reset, closed without a response, send/receive failure.
        case connectionLost
        case timedOut
        case tls
        case redirectLoop
        /// The connection ended before the body announced by the headers was complete.
        case bodyCutShort
        /// The sink threw; the sink knows why.
        case aborted
        case cancelled
        case invalidURL
        /// Anything else, with libcurl's code.
        case other(Int)
    }

    /// What failed.
    public var kind: Kind
    /// The transport's own message (may name the host; never the token, which lives in the query).
    public var message: String
    /// The head, when it arrived before the failure.
    public var head: HTTPResponseHead?
    /// Body bytes received before the failure.
    public var bytesReceived: Int64

    public init(_ kind: Kind, message: String = "", head: HTTPResponseHead? = nil, bytesReceived: Int64 = 0) {
        self.kind = kind
        self.message = message
        self.head = head
        self.bytesReceived = bytesReceived
    }

    public var description: String { "\(kind): \(message)" }
}

/// Performs HTTP exchanges.
public protocol Transport: Sendable {
    /// Sends `request` and streams the response into `sink`; returns the final head once the body
    /// is complete. No retries: one call, one exchange (redirects followed). Runs where its caller runs
    /// (`nonisolated(nonsending)`): the answer comes back to the caller's actor without a hop through the pool.
    nonisolated(nonsending) func perform(
        _ request: HTTPRequest, into sink: any ResponseSink
    ) async throws(TransportError) -> HTTPResponseHead
}
