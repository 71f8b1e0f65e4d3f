/// A transport that answers from a closure and records every request, for tests of code above
/// the network (the client, the shell, modules).
import OCEQCore

public final class StubTransport: Transport {
    /// What the stub answers.
    public enum Reply: Sendable {
        /// A complete response.
        case response(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [])
        /// A failure before any response.
        case failure(TransportError.Kind, message: String = "")
        /// The head and part of the body, then a failure (`.bodyCutShort`, `.connectionLost`).
        case cutShort(status: Int, headers: [HTTPHeader], partialBody: [UInt8], failure: TransportError.Kind)

        /// A 200 JSON response.
        public static func json(_ text: String, status: Int = 200, headers: [HTTPHeader] = []) -> Reply {
            .response(
                status: status, headers: [HTTPHeader("Content-Type", "application/json")] + headers,
                body: Array(text.utf8))
        }
    }

    private let handler: @Sendable (HTTPRequest) -> Reply
    private let log = Locked<[HTTPRequest]>([])
    /// Body chunk size used when feeding the sink.
    public let chunkSize: Int

    /// A stub calling `handler` for every request.
    public init(chunkSize: Int = 4096, _ handler: @escaping @Sendable (HTTPRequest) -> Reply) {
        self.handler = handler
        self.chunkSize = max(1, chunkSize)
    }

    /// Every request performed so far, in order.
    public var requests: [HTTPRequest] { log.withLock { $0 } }

    /// Records the request and answers with the handler's reply.
    nonisolated(nonsending) public func perform(
        _ request: HTTPRequest, into sink: any ResponseSink
    ) async throws(TransportError) -> HTTPResponseHead {
        log.withLock { $0.append(request) }
        if Task.isCancelled { throw TransportError(.cancelled, message: "cancelled") }
        switch handler(request) {
        case .failure(let kind, let message):
            throw TransportError(kind, message: message)
        case .response(let status, let headers, let body):
            let head = HTTPResponseHead(status: status, headers: headers, httpVersion: "1.1")
            try feed(head, body, sink)
            return head
        case .cutShort(let status, let headers, let body, let kind):
            let head = HTTPResponseHead(status: status, headers: headers, httpVersion: "1.1")
            try feed(head, body, sink)
            throw TransportError(kind, message: "connection ended early", head: head, bytesReceived: Int64(body.count))
        }
    }

    private func feed(_ head: HTTPResponseHead, _ body: [UInt8], _ sink: any ResponseSink) throws(TransportError) {
        do {
            try sink.receiveHead(head)
            var start = 0
            while start < body.count {
                let end = min(body.count, start + chunkSize)
                try body[start..<end].withUnsafeBytes { try sink.receiveBody($0) }
                start = end
            }
        } catch {
            throw TransportError(.aborted, message: "\(error)", head: head)
        }
    }
}
