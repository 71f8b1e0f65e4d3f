import DeliveryKit
import OCEQCore

extension DeliveryClient {
    /// The POST a GraphQL request would be sent as; no network.
    public func prepare(graphQL request: GraphQLQuery) -> PreparedRequest {
        var prepared = prepare(request.endpoint(), accept: "application/json")
        prepared.method = "POST"
        prepared.headers.append(HTTPHeader("Content-Type", "application/json"))
        prepared.body = request.body
        return prepared
    }

    /// Sends a GraphQL request; the answer's JSON (`data` and `errors`) as the server wrote it,
    /// with the tokens redacted wherever they occur (GraphQL URLs such as `file { url }` are plain
    /// strings, not `links`). HTTP errors (400 for a malformed request, 401,
    /// 403) are `DeliveryError`s as for every other request.
    public func graphQL(_ request: GraphQLQuery) async throws(DeliveryError) -> JSON {
        let prepared = prepare(graphQL: request)
        let limit = configuration.maximumJSONSize
        let url = prepared.redactedURL
        let (_, sink) = try await exchange(prepared, accept: { (200..<300).contains($0) }) { _ in
            var http = HTTPRequest(method: "POST", url: prepared.url, headers: prepared.headers, acceptCompressed: true)
            http.body = prepared.body
            return (http, MemorySink(limit: limit, url: url))
        }
        if sink.body.isEmpty { throw .malformedJSON(url: url, JSONParseError(at: 0, "empty body")) }
        do {
            return Self.redacting(try JSON.parse(sink.body), redactor)
        } catch {
            throw .malformedJSON(url: url, error)
        }
    }

    /// `json` with every string passed through `redactor`.
    static func redacting(_ json: JSON, _ redactor: Redactor) -> JSON {
        switch json {
        case .string(let text): return .string(redactor.redact(text))
        case .array(let elements): return .array(elements.map { redacting($0, redactor) })
        case .object(let members): return .object(members.mapValues { redacting($0, redactor) })
        default: return json
        }
    }
}
