/// What a handler answers: a status, headers, and a body held in memory or sent from a file.
public struct HTTPResponse: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable {
        /// No body (304, HEAD-only answers).
        case empty
        /// Bytes in memory.
        case bytes([UInt8])
        /// A byte range of a file on disk: read into memory up to `HTTPServer.inlineFileLimit` bytes,
        /// else sent with sendfile (never copied into memory).
        case file(path: String, offset: Int, length: Int)
        /// Bytes produced on demand (fault injection: delays, drips, cut-offs).
        case stream(HTTPBodyStream)
    }

    public var status: Int
    /// Headers in the order they are sent; `Content-Length` is added by the server.
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// Work to run on the server's slow-answer pool (not a request thread); its result is the
    /// real answer. Set by `HTTPResponse.later`; the status, headers and body are then unused.
    public var later: (@Sendable () -> HTTPResponse)?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An answer made by `work` on the server's slow-answer pool (first-time renditions), so that
    /// making it never holds a request thread; 503 when that pool's queue is full.
    public static func later(_ work: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        var response = HTTPResponse(status: 503)
        response.later = work
        return response
    }

    /// The value of header `name` (any case), if set.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first(where: { $0.name.lowercased() == lower })?.value
    }

    /// Appends header `name` (CORS headers, added after the handler answered).
    public mutating func addHeader(_ name: String, _ value: String) {
        headers.append((name, value))
    }
}

/// A body produced chunk by chunk. `next` is called with the offset reached so far and returns the
/// next chunk, an empty array at the end, or nil to abort the connection (a reset mid-body).
public struct HTTPBodyStream: Sendable {
    /// The `Content-Length` announced to the client (may be more than is sent, to simulate truncation).
    public var declaredLength: Int?
    /// When `next` returns nil, reset the TCP connection (RST) instead of closing it.
    public var resetOnAbort: Bool
    /// Produces the next chunk; may block (delays, slow drips) — it runs on a server pool thread.
    public var next: @Sendable (_ offset: Int) -> [UInt8]?

    public init(declaredLength: Int?, resetOnAbort: Bool = false, next: @escaping @Sendable (_ offset: Int) -> [UInt8]?)
    {
        self.declaredLength = declaredLength
        self.resetOnAbort = resetOnAbort
        self.next = next
    }
}
