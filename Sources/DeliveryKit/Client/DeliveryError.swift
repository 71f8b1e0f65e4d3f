// Every failure of the client, as one typed error. Each case carries the URL already redacted
// (channel token shown as REDACTED), so no message, log line or stored error can leak a secret,
// and prints as one line naming that URL and what was expected.
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed delivery request.
public enum DeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request was refused before any network call (empty id, bad limit, unsafe file name, ...).
    case invalidRequest(String)
    /// The server address is not `http[s]://host[:port]`.
    case invalidServerAddress(String, reason: String)
    /// The server answered with a non-2xx status.
    case http(HTTPError)
    /// The body is not JSON.
    case malformedJSON(url: String, JSONParseError)
    /// The body is JSON but not the expected shape (not an item, no `items` array, ...).
    case unexpectedShape(url: String, ShapeError)
    /// The body is larger than the client accepts for JSON.
    case responseTooLarge(url: String, limit: Int)
    /// The connection ended before the whole body arrived.
    case bodyCutShort(url: String, received: Int64, expected: Int64?)
    /// Redirects went on past the limit.
    case redirectLoop(url: String)
    /// The host name did not resolve.
    case unknownHost(url: String, host: String)
    /// Nothing listens at the host and port.
    case connectionRefused(url: String)
    /// The connection was reset or closed without a response.
    case connectionLost(url: String, detail: String)
    /// Connecting took too long, or the transfer stalled.
    case timedOut(url: String, detail: String)
    /// TLS failed: certificate verification, handshake, protocol.
    case tls(url: String, detail: String)
    /// A response that breaks the HTTP contract we rely on (a bad `Content-Range`, ...).
    case invalidResponse(url: String, reason: String)
    /// A file operation of a download failed.
    case file(path: String, operation: String, errno: Int32)
    /// The task was cancelled.
    case cancelled(url: String)
    /// Any other transport failure (libcurl's code and message).
    case transport(url: String, code: Int, detail: String)

    /// The redacted URL the error concerns, when there is one.
    public var url: String? {
        switch self {
        case .invalidRequest, .invalidServerAddress, .file: return nil
        case .http(let error): return error.url
        case .malformedJSON(let url, _), .unexpectedShape(let url, _), .responseTooLarge(let url, _),
            .bodyCutShort(let url, _, _), .redirectLoop(let url), .unknownHost(let url, _),
            .connectionRefused(let url), .connectionLost(let url, _), .timedOut(let url, _), .tls(let url, _),
            .invalidResponse(let url, _), .cancelled(let url), .transport(let url, _, _):
            return url
        }
    }

    /// Whether an idempotent request may be sent again after this error (connection-level
    /// failures; statuses are decided by the retry policy).
    public var isConnectionFailure: Bool {
        switch self {
        case .connectionRefused, .connectionLost, .timedOut, .bodyCutShort: return true
        default: return false
        }
    }

    /// Whether a file operation failed for want of space: the disk or quota is full (`ENOSPC`,
    /// `EDQUOT`) or the file outgrew the process's file-size limit (`EFBIG`).
    public var isOutOfSpace: Bool {
        guard case .file(_, _, let code) = self else { return false }
        return code == ENOSPC || code == EDQUOT || code == EFBIG
    }

    public var description: String {
        switch self {
        case .invalidRequest(let reason): return "invalid request: \(reason)"
        case .invalidServerAddress(let text, let reason): return "invalid server address \"\(text)\": \(reason)"
        case .http(let error): return error.description
        case .malformedJSON(let url, let error):
            return "malformed JSON from \(url): \(error) (expected a JSON document)"
        case .unexpectedShape(let url, let error): return "unexpected JSON from \(url): \(error)"
        case .responseTooLarge(let url, let limit):
            return "response from \(url) is larger than \(limit) bytes (expected a JSON document under the limit)"
        case .bodyCutShort(let url, let received, let expected):
            let of = expected.map { " of \($0)" } ?? ""
            return "body cut short from \(url): received \(received)\(of) bytes before the connection ended"
        case .redirectLoop(let url): return "redirect loop at \(url): too many redirects (expected a response)"
        case .unknownHost(let url, let host): return "unknown host \"\(host)\" for \(url)"
        case .connectionRefused(let url): return "connection refused for \(url) (expected a server listening there)"
        case .connectionLost(let url, let detail): return "connection lost for \(url): \(detail)"
        case .timedOut(let url, let detail): return "timed out for \(url): \(detail)"
        case .tls(let url, let detail): return "TLS error for \(url): \(detail)"
        case .invalidResponse(let url, let reason): return "invalid response from \(url): \(reason)"
        case .file(let path, let operation, let errno):
            return "cannot \(operation) \(path): \(DeliveryError.errnoText(errno))"
        case .cancelled(let url): return "cancelled: \(url)"
        case .transport(let url, let code, let detail): return "transfer failed for \(url): \(detail) (curl \(code))"
        }
    }

    static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}

/// A non-2xx response, with the server's error body decoded (delivery-api.md §9.1).
public struct HTTPError: Sendable, Hashable, CustomStringConvertible {
    /// The request method.
    public var method: String
    /// The redacted URL.
    public var url: String
    /// The response status.
    public var status: Int
    /// `title` of the error body, else the status reason.
    public var title: String?
    /// `detail` of the error body.
    public var detail: String?
    /// `o:errorCode` of the error body.
    public var errorCode: String?
    /// `type` of the error body.
    public var type: String?
    /// `o:errorDetails[].detail` (or titles) of the error body.
    public var details: [String]
    /// The body text (redacted, at most 2000 characters) when it is not a JSON error object.
    public var body: String?
    /// Seconds to wait, from `Retry-After`.
    public var retryAfter: Double?

    /// An error with every part given.
    public init(
        method: String = "GET", url: String, status: Int, title: String? = nil, detail: String? = nil,
        errorCode: String? = nil, type: String? = nil, details: [String] = [], body: String? = nil,
        retryAfter: Double? = nil
    ) {
        self.method = method
        self.url = url
        self.status = status
        self.title = title
        self.detail = detail
        self.errorCode = errorCode
        self.type = type
        self.details = details
        self.body = body
        self.retryAfter = retryAfter
    }

    /// The server's own words first (`no item X in this channel`), then the status and the request
    /// in parentheses; without a detail, the status and the request lead, then the body if any.
    public var description: String {
        var status = "HTTP \(self.status)"
        if let title = title ?? HTTPError.reason(self.status) { status += " \(title)" }
        if let detail, !detail.isEmpty {
            let code = errorCode.map { "; o:errorCode \($0)" } ?? ""
            return "\(detail) (\(status) from \(method) \(url)\(code))".singleLine
        }
        var text = "\(status) from \(method) \(url)"
        if let body, !body.isEmpty { text += ": \(body.truncated(to: 200))" }
        if let errorCode { text += " (o:errorCode \(errorCode))" }
        return text.singleLine
    }

    /// The standard reason phrase of common statuses.
    public static func reason(_ status: Int) -> String? {
        switch status {
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return nil
        }
    }

    /// Decodes an error body: the JSON shape of §9.1 when it is one, else the text.
    package init(method: String, url: String, status: Int, body: [UInt8], retryAfter: Double?, redactor: Redactor) {
        self.init(method: method, url: url, status: status, retryAfter: retryAfter)
        if let json = try? JSON.parse(body), case .object(let object) = json {
            title = object["title"]?.stringValue.map(redactor.redact)
            detail = object["detail"]?.stringValue.map(redactor.redact)
            errorCode = object["o:errorCode"]?.stringValue ?? object["o:errorCode"]?.intValue.map(String.init)
            type = object["type"]?.stringValue
            details =
                object["o:errorDetails"]?.arrayValue?.compactMap {
                    ($0["detail"]?.stringValue ?? $0["title"]?.stringValue).map(redactor.redact)
                } ?? []
            if title == nil && detail == nil && errorCode == nil {
                self.body = redactor.redact(String(decoding: body.prefix(2000), as: UTF8.self)).singleLine
            }
        } else if !body.isEmpty {
            let text = redactor.redact(String(decoding: body.prefix(2000), as: UTF8.self)).singleLine.trimmedWhitespace
            self.body = text.isEmpty ? nil : text
        }
    }
}
