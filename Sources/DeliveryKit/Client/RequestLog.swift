/// One attempt of one request, for `--verbose` and timing. The URL is redacted.
import OCEQCore

public struct RequestLogEntry: Sendable, Hashable, CustomStringConvertible {
    /// The request method.
    public var method: String
    /// The URL with the channel token shown as `REDACTED`.
    public var url: String
    /// The final status, or nil when no response arrived.
    public var status: Int?
    /// Body bytes received.
    public var bytes: Int64
    /// Wall time of the attempt in milliseconds.
    public var milliseconds: Double
    /// 1 for the first attempt.
    public var attempt: Int
    /// The error of a failed attempt (one line, redacted).
    public var error: String?
    /// `1.1`, `2`, ... when known.
    public var httpVersion: String?

    /// An entry with every part given.
    public init(
        method: String, url: String, status: Int?, bytes: Int64, milliseconds: Double, attempt: Int = 1,
        error: String? = nil, httpVersion: String? = nil
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.bytes = bytes
        self.milliseconds = milliseconds
        self.attempt = attempt
        self.error = error
        self.httpVersion = httpVersion
    }

    /// `GET <url> -> 200, 1234 bytes, 12 ms` (plus `attempt 2` and the error when there is one).
    public var description: String {
        var text = "\(method) \(url) -> \(status.map(String.init) ?? "no response"), \(bytes) bytes, "
        text += "\(Int(milliseconds.rounded())) ms"
        if attempt > 1 { text += ", attempt \(attempt)" }
        if let error { text += ": \(error)" }
        return text
    }
}
