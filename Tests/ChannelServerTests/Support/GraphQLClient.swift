import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport

/// A GraphQL POST to a test channel, answered status and parsed body.
struct GraphQLAnswer {
    var status: Int
    var body: JSON
    var text: String

    var data: JSON? { body["data"] }
    var errors: [JSON] { body["errors"]?.arrayValue ?? [] }
    var messages: [String] { errors.compactMap { $0["message"]?.stringValue } }

    /// The `{line, column}` pairs of the first error.
    var firstLocations: [[Int]] {
        (errors.first?["locations"]?.arrayValue ?? []).map { [$0["line"]?.intValue ?? 0, $0["column"]?.intValue ?? 0] }
    }
}

extension TestChannel {
    static let graphQLPath = TestChannel.prefix + "/graphql"

    /// POSTs raw bytes to `target` (the GraphQL path with the token by default).
    func post(
        _ body: [UInt8], target: String = TestChannel.graphQLPath + "?channelToken=" + TestChannel.token,
        headers: [String: String] = [:]
    ) async throws -> RawHTTPResponse {
        var request =
            "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let raw = try await RawHTTPClient.exchange(port: port, bytes: Array(request.utf8) + body, timeout: 20)
        return RawHTTPClient.parse(raw.bytes, method: "POST", reset: raw.reset)
    }

    /// A GraphQL request `{query, variables, operationName}`.
    func graphQL(
        _ query: String, variables: JSON? = nil, operationName: String? = nil,
        target: String = TestChannel.graphQLPath + "?channelToken=" + TestChannel.token,
        headers: [String: String] = [:]
    ) async throws -> GraphQLAnswer {
        var object: [String: JSON] = ["query": .string(query)]
        if let variables { object["variables"] = variables }
        if let operationName { object["operationName"] = .string(operationName) }
        let response = try await post(JSONWriter().bytes(.object(object)), target: target, headers: headers)
        let body = (try? JSON.parse(response.body)) ?? .null
        return GraphQLAnswer(status: response.status, body: body, text: response.text)
    }
}
