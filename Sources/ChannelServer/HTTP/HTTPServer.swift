// HTTPServer: libmicrohttpd underneath, a plain `ServerRequest -> HTTPResponse` function on top.
//
// MHD runs its own thread pool (internal polling, one epoll loop per thread) and calls the
// access handler on those threads, so the handler must be thread-safe. The raw request target is
// captured by MHD's URI-log callback before MHD decodes anything; that object lives as the
// request's context until MHD's completion callback releases it. A file up to `inlineFileLimit`
// (a cached rendition, a thumbnail) is read into a buffer MHD frees, so its headers and body leave
// in one write: sending the headers alone and then sendfile cost a second send and a second wakeup
// of the client per request. Larger files go by `MHD_create_response_from_fd_at_offset64`
// (sendfile): their bodies are never copied. With `NativeContainment` and `MadeRendition`, a cached
// Medium jpg went from about 49 to 25–30 µs of server CPU per request (nginx: 21–24 µs).
//
// Limits (`ConnectionLimits`): the descriptor limit is raised to the hard limit at start; MHD
// accepts and at once closes connections over the total or per-client cap; `HeaderDeadline`
// closes connections that trickle their headers. The listening socket is exclusive (no
// SO_REUSEPORT), so a port another server holds is refused with `portInUse`.
//
// Slow answers (`HTTPResponse.later`, first-time renditions) are made on a `WorkPool` of their
// own: the request's connection is suspended (MHD_suspend_connection), the pool makes the answer
// and resumes it, and MHD calls the access handler again, which queues the answer. A request
// thread never waits for one, so JSON answers go on while images are rendered.
import CMicroHTTPD
import Dispatch
import FoundationEssentials
import Glibc
import OCEQCore

/// Errors starting the server.
public enum HTTPServerError: Error, CustomStringConvertible {
    case invalidHost(String)
    case cannotListen(host: String, port: Int)
    /// Another program listens on the port.
    case portInUse(port: Int)

    public var description: String {
        switch self {
        case .invalidHost(let host): return "'\(host)' is not an IPv4 or IPv6 address (or localhost)"
        case .cannotListen(let host, let port):
            return "cannot listen on \(host):\(port) (not permitted, or no such address here)"
        case .portInUse(let port): return "port \(port) is in use"
        }
    }
}

/// One finished exchange, for the access log.
public struct HTTPExchange: Sendable {
    public var request: ServerRequest
    public var status: Int
    public var bytes: Int
    public var milliseconds: Double

    /// An exchange as the server reports it.
    public init(request: ServerRequest, status: Int, bytes: Int, milliseconds: Double) {
        self.request = request
        self.status = status
        self.bytes = bytes
        self.milliseconds = milliseconds
    }
}

/// An HTTP/1.1 server over libmicrohttpd with a thread pool.
public final class HTTPServer: @unchecked Sendable {
    /// Answers one request; called concurrently from the pool threads.
    public typealias Handler = @Sendable (ServerRequest) -> HTTPResponse
    /// Sees each finished exchange (the access log).
    public typealias Observer = @Sendable (HTTPExchange) -> Void

    /// The longest request target the handler accepts (longer ones get 414).
    public static let maximumTargetLength = 16 * 1024
    /// The largest request body read (a GraphQL POST); a longer one gets 413.
    public static let maximumBodyLength = 1 << 20
    /// Files up to this size are read into memory and sent with their headers in one write;
    /// larger ones go by sendfile after the headers.
    public static let inlineFileLimit = 64 * 1024

    let handler: Handler
    let observer: Observer?
    private var daemon: OpaquePointer?
    /// Closes connections that take too long to send their headers.
    let headerDeadline: HeaderDeadline
    /// Makes slow answers off the request threads.
    let slowPool: WorkPool
    /// The port actually bound (useful after `port: 0`).
    public private(set) var port: Int = 0
    public let host: String

    /// Binds `host:port` (port 0 picks a free one) and starts `threads` worker threads.
    public init(
        host: String = "127.0.0.1", port: Int, threads: Int = 4, slowThreads: Int = 2,
        limits: ConnectionLimits = ConnectionLimits(), handler: @escaping Handler, observer: Observer? = nil
    )
        throws
    {
        self.handler = handler
        self.observer = observer
        self.host = host
        _ = try CLibraries.requireHTTP()
        let descriptors = ConnectionLimits.raiseDescriptorLimit()
        let headerDeadline = HeaderDeadline(seconds: limits.headerTimeout)
        self.headerDeadline = headerDeadline
        let slowPool = WorkPool(threads: slowThreads, queueLimit: 64, name: "oceq-slow")
        self.slowPool = slowPool
        let context = Unmanaged.passUnretained(self).toOpaque()
        var flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        let started: OpaquePointer? = try HTTPServer.withSocketAddress(host: host, port: port) { address, isIPv6 in
            if isIPv6 { flags |= UInt32(MHD_USE_IPv6.rawValue) }
            return oceq_mhd_start(
                flags, UInt16(port), address, accessHandler, context, completedHandler, context, uriLogHandler, context,
                connectionNotifier, context, UInt32(max(1, threads)),
                UInt32(limits.effectiveConnectionLimit(descriptors: descriptors)),
                UInt32(max(0, limits.maximumConnectionsPerClient)), UInt32(max(1, limits.listenBacklog)),
                // 32 KiB per connection: room for a 16 KiB target and headers. MHD clears the pool on each
                // request, so a larger pool costs a memset per request (96 KiB halved file throughput).
                UInt32(max(1, limits.idleTimeout)), 32 * 1024)
        }
        guard let started else {
            headerDeadline.stop()
            slowPool.close()
            if port != 0, (try? HTTPServer.portIsTaken(host: host, port: port)) == true {
                throw HTTPServerError.portInUse(port: port)
            }
            throw HTTPServerError.cannotListen(host: host, port: port)
        }
        daemon = started
        self.port = Int(oceq_mhd_bound_port(started))
    }

    /// Stops accepting, finishes in-flight requests and joins the pool threads.
    public func stop() {
        headerDeadline.stop()
        // Every suspended connection must be resumed before MHD stops: finish the slow answers first.
        slowPool.close()
        if let daemon {
            CLibraries.mhd.MHD_stop_daemon(daemon)
            self.daemon = nil
        }
    }

    deinit { stop() }

    /// Connections closed so far for taking longer than the header deadline.
    public var connectionsPastHeaderDeadline: Int { headerDeadline.expiredCount.withLock { $0 } }

    /// True when binding `host:port` fails with EADDRINUSE (after MHD failed to listen there).
    static func portIsTaken(host: String, port: Int) throws -> Bool {
        try withSocketAddress(host: host, port: port) { address, isIPv6 in
            let probe = socket(
                isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard probe >= 0 else { return false }
            defer { close(probe) }
            var on: Int32 = 1
            setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
            return bind(probe, address, length) != 0 && errno == EADDRINUSE
        }
    }

    static func withSocketAddress<T>(
        host: String, port: Int, _ body: (UnsafePointer<sockaddr>, Bool) -> T
    ) throws -> T {
        var v4 = sockaddr_in()
        let host = host == "localhost" ? "127.0.0.1" : host
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            return withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, false) }
            }
        }
        var v6 = sockaddr_in6()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if inet_pton(AF_INET6, bare, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            return withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, true) }
            }
        }
        throw HTTPServerError.invalidHost(host)
    }
}

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

private let uriLogHandler:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, uri, _ in
        let target = uri.map { String(cString: $0) } ?? "/"
        return Unmanaged.passRetained(RequestContext(target: target)).toOpaque()
    }

private let completedHandler:
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

private let connectionNotifier: MHD_NotifyConnectionCallback = { cls, connection, _, event in
    guard let cls, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let socket = oceq_mhd_socket(connection)
    guard socket >= 0 else { return }
    if event.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
        server.headerDeadline.opened(socket)
    } else {
        server.headerDeadline.closed(socket)
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

private let accessHandler: MHD_AccessHandlerCallback = {
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

extension HTTPServer {
    /// A minimal JSON error body, for failures below the router (the router builds its own).
    static func plainError(_ status: Int, _ detail: String) -> HTTPResponse {
        let titles = [414: "URI Too Long", 500: "Internal Server Error", 503: "Service Unavailable"]
        let title = titles[status] ?? "Error"
        let body: [String: OCEQCore.JSON] = [
            "type": .string("https://www.rfc-editor.org/rfc/rfc9110#status.\(status)"),
            "title": .string(title), "status": .int(status), "detail": .string(detail),
            "o:errorCode": .string("OCE-DELIVERY-\(status)"),
        ]
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")],
            body: .bytes(JSONWriter().bytes(.object(body))))
    }
}
