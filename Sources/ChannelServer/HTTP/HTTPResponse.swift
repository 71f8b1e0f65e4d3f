/// What a handler answers: a status, headers, and a body held in memory or sent from a file.
public struct HTTPResponse: Sendable {
    /// Where the body comes from.
    public enum Body: Sendable {
        /// No body (304, HEAD-only answers).
        case empty
        /// Bytes in memory.
        case bytes([UInt8])
        /// A byte range of a file on disk, sent with sendfile: never copied into memory.
        case file(path: String, offset: Int, length: Int)
        /// Bytes produced on demand (fault injection: delays, drips, cut-offs).
        case stream(HTTPBodyStream)
    }

    public var status: Int
    /// Headers in the order they are sent; `Content-Length` is added by the server.
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
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
