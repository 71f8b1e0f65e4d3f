import OCEQCore

/// An error answer of the delivery API: the body shape Oracle's SDK decodes
/// (`type`, `title`, `status`, `detail`, `o:errorCode`), delivery-api.md §9.1.
public struct APIError: Error, Sendable, Equatable {
    public var status: Int
    public var detail: String
    public var code: String
    /// Extra headers (`WWW-Authenticate`, `Allow`, `Content-Range`).
    public var headers: [String: String]
    /// OCM's own title where it is recorded ("Item Not Found", "Invalid Query"); nil: the reason phrase.
    public var recordedTitle: String?

    public init(
        status: Int, detail: String, code: String? = nil, headers: [String: String] = [:], title: String? = nil
    ) {
        self.status = status
        self.detail = detail
        self.code = code ?? "OCE-DELIVERY-\(status)"
        self.headers = headers
        self.recordedTitle = title
    }

    /// 500 for an index that could not be read: the server's fault, said as such, never a 404 or a
    /// page with items missing.
    public init(storage error: IndexStorageError) {
        self.init(status: 500, detail: "the channel's index could not be read: \(error)")
    }

    /// The title: OCM's recorded one, else the reason phrase for the status.
    public var title: String { recordedTitle ?? APIError.titles[status] ?? "Error" }

    static let titles: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        414: "URI Too Long", 416: "Range Not Satisfiable", 429: "Too Many Requests", 500: "Internal Server Error",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// The JSON body.
    public var body: JSON {
        [
            "type": .string("https://www.rfc-editor.org/rfc/rfc9110#status.\(status)"),
            "title": .string(title), "status": .int(status), "detail": .string(detail), "o:errorCode": .string(code),
        ]
    }

    /// The HTTP response carrying this error.
    public var response: HTTPResponse {
        var headerList: [(name: String, value: String)] = [("Content-Type", "application/json")]
        headerList += headers.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }
        return HTTPResponse(status: status, headers: headerList, body: .bytes(JSONWriter().bytes(body)))
    }

    /// 403 for a missing or wrong channel token, in OCM's words.
    public static let channelToken = APIError(
        status: 403, detail: "Channel Token is incorrect or missing in the request", code: "OCE-DELIVERY-CHANNEL-TOKEN")

    /// 401 for a secure channel asked without (or with a wrong) bearer token.
    public static let bearer = APIError(
        status: 401, detail: "this channel is secure: send 'Authorization: Bearer <token>'",
        code: "OCE-DELIVERY-AUTHORIZATION", headers: ["WWW-Authenticate": "Bearer realm=\"oceq\""])

    /// 404 for a path that names no resource.
    public static func notFound(_ detail: String) -> APIError {
        APIError(status: 404, detail: detail, code: "OCE-DELIVERY-NOT-FOUND")
    }

    /// 404 for an unknown item id or slug, titled as OCM titles it.
    public static func itemNotFound(_ detail: String) -> APIError {
        APIError(status: 404, detail: detail, code: "OCE-DELIVERY-NOT-FOUND", title: "Item Not Found")
    }

    /// 400 for a `q` (or a search parameter) that cannot be evaluated, titled as OCM titles it.
    public static func invalidQuery(_ detail: String) -> APIError {
        APIError(status: 400, detail: detail, code: "OCE-DELIVERY-BAD-REQUEST", title: "Invalid Query")
    }

    /// 400 for a malformed parameter.
    public static func badRequest(_ detail: String) -> APIError {
        APIError(status: 400, detail: detail, code: "OCE-DELIVERY-BAD-REQUEST")
    }
}
