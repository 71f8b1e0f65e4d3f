// libmicrohttpd's side of `HTTPServer`: the C callbacks MHD calls on its threads (the request's
// target captured before decoding, the access handler that runs the server's handler, completion and
// connection notices) and the state they keep per request and per streamed body.

import CMicroHTTPD
import Dispatch
import FoundationEssentials
import Glibc
import OCEQCore

/// Per-request state owned by MHD between the URI-log and completion callbacks.
final class RequestContext {
    let target: String
    let started = DispatchTime.now().uptimeNanoseconds
    /// The headers, read on the first call of the access handler.
    var headers: [String: String]?
    var answered = false
    /// The request and its answer made on the slow pool, queued when MHD resumes the connection.
    var deferredRequest: ServerRequest?
    var deferredResponse: HTTPResponse?
    /// The body of a POST, collected across calls of the access handler.
    var body: [UInt8]?

    init(target: String) {
        self.target = target
    }
}

/// Buffering state for a streamed body.
final class StreamState {
    let stream: HTTPBodyStream
    /// The connection's socket, to reset it when the stream aborts with `resetOnAbort`.
    let socket: Int32
    var pending: [UInt8] = []
    var produced = 0
    var finished = false

    init(stream: HTTPBodyStream, socket: Int32) {
        self.stream = stream
        self.socket = socket
    }
}

/// MHD's URI-log callback: keeps the raw request target, before MHD decodes it, as the request's context.
let uriLogHandler:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, uri, _ in
        let target = uri.map { String(cString: $0) } ?? "/"
        return Unmanaged.passRetained(RequestContext(target: target)).toOpaque()
    }

/// MHD's completion callback: tells the header deadline the request is over and releases its context.
let completedHandler:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_RequestTerminationCode
    ) -> Void = { cls, connection, contextSlot, _ in
        if let cls, let connection {
            let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
            server.headerDeadline.requestFinished(oceq_mhd_socket(connection))
        }
        guard let contextSlot, let raw = contextSlot.pointee else { return }
        Unmanaged<RequestContext>.fromOpaque(raw).release()
        contextSlot.pointee = nil
    }

/// MHD's connection notice: tells the header deadline (`HeaderDeadline`) of each connection opened and closed.
let connectionNotifier: MHD_NotifyConnectionCallback = { cls, connection, _, event in
    guard let cls, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let socket = oceq_mhd_socket(connection)
    guard socket >= 0 else { return }
    if event.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
        server.headerDeadline.opened(socket)
    } else {
        server.headerDeadline.closed(socket)
        server.connectionClosed(socket: socket)
    }
}

private let headerIterator:
    @convention(c) (UnsafeMutableRawPointer?, MHD_ValueKind, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result =
        {
            cls, _, key, value in
            guard let cls, let key else { return .YES }
            let headers = cls.assumingMemoryBound(to: [String: String].self)
            headers.pointee[String(cString: key).quickLowercased] = value.map { String(cString: $0) } ?? ""
            return .YES
        }

/// MHD's access handler: reads the request, runs the server's handler (or defers a slow answer) and queues
/// the response.
let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, _, method, _, uploadData, uploadSize, contextSlot in
    guard let cls, let connection, let contextSlot, let raw = contextSlot.pointee else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
    if context.answered {
        if let request = context.deferredRequest, var response = context.deferredResponse {
            context.deferredRequest = nil
            context.deferredResponse = nil
            return send(server, context, request, &response, connection)
        }
        // Body data of a request already answered (we take no uploads): discard it.
        uploadSize?.pointee = 0
        return .YES
    }
    guard let headers = context.headers else {
        // First call: only the headers are in. A response queued now is "early" and makes MHD
        // close the connection after it (it cannot tell where the next request starts), so a
        // request without a body is answered on the next call, once MHD has read all of it, and
        // its connection stays open for the next request. A request announcing a body is
        // answered at once (we take no uploads) and its connection is closed.
        server.headerDeadline.headersReceived(oceq_mhd_socket(connection))
        var headers: [String: String] = [:]
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = CLibraries.mhd.MHD_get_connection_values(connection, .HEADER_KIND, headerIterator, pointer)
        }
        context.headers = headers
        let length = headers["content-length"]
        let announcesBody = headers["transfer-encoding"] != nil || (length != nil && length != "0")
        // A POST to the GraphQL endpoint is the one request whose body is read; a declared length
        // over the limit is refused at once. Other uploads are answered without reading them.
        if announcesBody, method.map({ String(cString: $0) }) == "POST", context.target.contains("/graphql") {
            guard (length.flatMap { Int($0) } ?? 0) <= HTTPServer.maximumBodyLength else {
                context.answered = true
                var response = HTTPServer.plainError(
                    413, "request body longer than \(HTTPServer.maximumBodyLength) bytes")
                let request = ServerRequest(method: "POST", target: context.target, headers: headers)
                return send(server, context, request, &response, connection)
            }
            context.body = []
            return .YES
        }
        return announcesBody ? answer(server, context, headers, connection, method) : .YES
    }
    if let size = uploadSize, size.pointee > 0, let data = uploadData {
        guard (context.body?.count ?? 0) + size.pointee <= HTTPServer.maximumBodyLength else {
            size.pointee = 0
            context.answered = true
            context.deferredRequest = ServerRequest(method: "POST", target: context.target, headers: headers)
            context.deferredResponse = HTTPServer.plainError(
                413, "request body longer than \(HTTPServer.maximumBodyLength) bytes")
            return .YES
        }
        data.withMemoryRebound(to: UInt8.self, capacity: size.pointee) { bytes in
            context.body?.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size.pointee))
        }
        size.pointee = 0
        return .YES
    }
    return answer(server, context, headers, connection, method)
}

/// Runs the handler for a request and queues its response.
private func answer(
    _ server: HTTPServer, _ context: RequestContext, _ headers: [String: String], _ connection: OpaquePointer,
    _ method: UnsafePointer<CChar>?
) -> MHD_Result {
    context.answered = true
    var request = ServerRequest(
        method: method.map { String(cString: $0) } ?? "GET", target: context.target, headers: headers,
        // The address is only for the access log: formatting it costs more than the rest of the request line.
        clientAddress: server.observer == nil ? "-" : clientAddress(connection))
    if let body = context.body { request.body = body }
    var response: HTTPResponse
    if context.target.utf8.count > HTTPServer.maximumTargetLength {
        response = HTTPServer.plainError(414, "request target longer than \(HTTPServer.maximumTargetLength) bytes")
    } else {
        response = server.handler(request)
    }
    if let work = response.later {
        deferAnswer(work, server, context, request, connection)
        return .YES
    }
    return send(server, context, request, &response, connection)
}

/// Suspends the connection and makes its answer on the slow pool, which resumes it; MHD then calls
/// the access handler again, which sends the answer. A full pool gets 503 at once.
private func deferAnswer(
    _ work: @escaping @Sendable () -> HTTPResponse, _ server: HTTPServer, _ context: RequestContext,
    _ request: ServerRequest, _ connection: OpaquePointer
) {
    context.deferredRequest = request
    CLibraries.mhd.MHD_suspend_connection(connection)
    // MHD keeps the connection (and the context) until it is resumed and completed.
    nonisolated(unsafe) let context = context
    nonisolated(unsafe) let connection = connection
    let submitted = server.slowPool.submit {
        context.deferredResponse = work()
        CLibraries.mhd.MHD_resume_connection(connection)
    }
    if !submitted {
        var busy = HTTPServer.plainError(503, "the server is busy making images; try again shortly")
        busy.headers.append(("Retry-After", "1"))
        context.deferredResponse = busy
        CLibraries.mhd.MHD_resume_connection(connection)
    }
}

/// Queues `response` on the connection and reports the exchange.
private func send(
    _ server: HTTPServer, _ context: RequestContext, _ request: ServerRequest, _ response: inout HTTPResponse,
    _ connection: OpaquePointer
) -> MHD_Result {
    let (mhdResponse, length) = makeResponse(&response, connection: connection)
    guard let mhdResponse else { return .NO }
    for header in response.headers {
        _ = CLibraries.mhd.MHD_add_response_header(mhdResponse, header.name, header.value)
    }
    let result = CLibraries.mhd.MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    CLibraries.mhd.MHD_destroy_response(mhdResponse)
    if let observer = server.observer {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - context.started) / 1_000_000
        observer(HTTPExchange(request: request, status: response.status, bytes: length, milliseconds: elapsed))
    }
    return result
}

private func clientAddress(_ connection: OpaquePointer) -> String {
    guard let address = oceq_mhd_client_addr(connection) else { return "-" }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
        return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
            var addr = v4.pointee.sin_addr
            return inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? "-"
        }
    case AF_INET6:
        return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
            var addr = v6.pointee.sin6_addr
            return inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count)).map { String(cString: $0) } ?? "-"
        }
    default: return "-"
    }
}

/// Turns a response body into an MHD response; a file that cannot be opened becomes a 500.
private func makeResponse(_ response: inout HTTPResponse, connection: OpaquePointer) -> (OpaquePointer?, Int) {
    switch response.body {
    case .empty:
        return (CLibraries.mhd.MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT), 0)
    case .bytes(let bytes):
        let made = bytes.withUnsafeBytes { buffer in
            CLibraries.mhd.MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
        return (made, bytes.count)
    case .file(let path, let offset, let length):
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            response = HTTPServer.plainError(500, "the file for this resource cannot be read")
            return makeResponse(&response, connection: connection)
        }
        if length <= HTTPServer.inlineFileLimit {
            defer { close(fd) }
            switch readInline(fd: fd, offset: offset, length: length) {
            case .whole(let made): return (made, length)
            case .short(let bytes):
                // The file shrank: what it has, announced at its full length, then the connection is
                // cut, so the client sees a short body at once (never bytes made up to fill it).
                response.body = .stream(
                    HTTPBodyStream(declaredLength: length) { at in at == 0 && !bytes.isEmpty ? bytes : nil })
                return makeResponse(&response, connection: connection)
            case .failed: break
            }
            response = HTTPServer.plainError(500, "the file for this resource cannot be read")
            return makeResponse(&response, connection: connection)
        }
        // MHD owns the descriptor from here on and closes it with the response.
        return (CLibraries.mhd.MHD_create_response_from_fd_at_offset64(UInt64(length), fd, UInt64(offset)), length)
    case .stream(let stream):
        let socket = oceq_mhd_socket(connection)
        let state = Unmanaged.passRetained(StreamState(stream: stream, socket: socket)).toOpaque()
        let size = stream.declaredLength.map { UInt64($0) } ?? UInt64.max  // MHD_SIZE_UNKNOWN
        let made = CLibraries.mhd.MHD_create_response_from_callback(size, 16 * 1024, streamReader, state, streamFree)
        return (made, stream.declaredLength ?? 0)
    }
}

/// What reading a small file into memory gave.
private enum InlineRead {
    /// An MHD response over all `length` bytes, in a buffer MHD frees (`RESPMEM_MUST_FREE`).
    case whole(OpaquePointer)
    /// The file ended early: the bytes it had.
    case short([UInt8])
    /// No memory, a read error, or no MHD response.
    case failed
}

/// Reads `length` bytes of `fd` from `offset` into a buffer handed to MHD, so the headers and the
/// body leave in one write.
private func readInline(fd: Int32, offset: Int, length: Int) -> InlineRead {
    guard let buffer = malloc(max(1, length)) else { return .failed }
    var filled = 0
    while filled < length {
        let count = pread(fd, buffer + filled, length - filled, off_t(offset + filled))
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
            let bytes = count == 0 ? Array(UnsafeRawBufferPointer(start: buffer, count: filled)) : nil
            free(buffer)
            return bytes.map { .short($0) } ?? .failed
        }
        filled += count
    }
    guard let made = CLibraries.mhd.MHD_create_response_from_buffer(length, buffer, .RESPMEM_MUST_FREE) else {
        free(buffer)
        return .failed
    }
    return .whole(made)
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    let state = Unmanaged<StreamState>.fromOpaque(cls).takeUnretainedValue()
    while state.pending.isEmpty {
        if state.finished { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
        guard let chunk = state.stream.next(state.produced) else {
            if state.stream.resetOnAbort, state.socket >= 0 {
                // Linger 0: the close that follows sends RST instead of FIN.
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(state.socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            }
            return -2  // MHD_CONTENT_READER_END_WITH_ERROR: the connection is dropped
        }
        if chunk.isEmpty {
            state.finished = true
        } else {
            state.pending = chunk
        }
    }
    let count = min(max, state.pending.count)
    state.pending.withUnsafeBytes { source in
        buffer.update(from: source.baseAddress!.assumingMemoryBound(to: CChar.self), count: count)
    }
    state.pending.removeFirst(count)
    state.produced += count
    return count
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamState>.fromOpaque(cls).release()
}
