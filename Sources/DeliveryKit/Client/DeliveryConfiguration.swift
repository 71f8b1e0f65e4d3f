/// Where and how a client talks to a delivery server.
import OCEQCore

public struct DeliveryConfiguration: Sendable {
    /// The server origin (`https://host[:port]`).
    public var server: ServerAddress
    /// The channel token sent as `channelToken=` unless a request sets its own.
    public var channelToken: Secret?
    /// A bearer token for secure channels, sent as `Authorization: Bearer …` on every request.
    public var bearerToken: Secret?
    /// Sent as `User-Agent`.
    public var userAgent: String
    /// When to send a request again.
    public var retry: RetryPolicy
    /// The largest JSON body accepted, in bytes.
    public var maximumJSONSize: Int
    /// Called after every attempt of every request (from any thread).
    public var requestLog: (@Sendable (RequestLogEntry) -> Void)?

    /// A configuration with every setting given (the tokens are kept as `Secret`s).
    public init(
        server: ServerAddress, channelToken: String? = nil, bearerToken: String? = nil,
        userAgent: String = DeliveryKitInfo.userAgent, retry: RetryPolicy = .standard,
        maximumJSONSize: Int = 64 << 20, requestLog: (@Sendable (RequestLogEntry) -> Void)? = nil
    ) {
        self.server = server
        self.channelToken = channelToken.map { Secret($0) }
        self.bearerToken = bearerToken.map { Secret($0) }
        self.userAgent = userAgent
        self.retry = retry
        self.maximumJSONSize = maximumJSONSize
        self.requestLog = requestLog
    }

    /// A configuration for the server at `url` (`https://host[:port]`).
    public init(url: String, channelToken: String? = nil, bearerToken: String? = nil) throws(DeliveryError) {
        self.init(server: try ServerAddress(url), channelToken: channelToken, bearerToken: bearerToken)
    }

    /// Hides this configuration's secrets in messages that may echo them (a server's error body, a
    /// transport error); never used on content.
    public var redactor: Redactor {
        Redactor(secrets: [channelToken?.revealedForRequest, bearerToken?.revealedForRequest])
    }
}

/// A request ready to send: its URL (with and without secrets) and headers.
public struct PreparedRequest: Sendable, CustomStringConvertible {
    /// `GET`, or `POST` for GraphQL.
    public var method: String
    /// The full URL, channel token included.
    public var url: String
    /// The URL with the channel token shown as `REDACTED`.
    public var redactedURL: String
    /// `User-Agent`, `Accept`, and `Authorization` when a bearer token is configured.
    public var headers: [HTTPHeader]
    /// The body of a POST (a GraphQL request); nil for GET.
    public var body: [UInt8]? = nil

    /// A request of `method` to `url` (shown as `redactedURL`) with `headers`.
    package init(method: String, url: String, redactedURL: String, headers: [HTTPHeader]) {
        self.method = method
        self.url = url
        self.redactedURL = redactedURL
        self.headers = headers
    }

    /// The headers with the bearer token shown as `REDACTED`.
    public var redactedHeaders: [HTTPHeader] {
        headers.map { $0.name == "Authorization" ? HTTPHeader($0.name, "Bearer REDACTED") : $0 }
    }

    /// `GET <redacted url>`
    public var description: String { "\(method) \(redactedURL)" }
}
