// HTTPServer: libmicrohttpd underneath, a plain `ServerRequest -> HTTPResponse` function on top.
//
// Each worker thread is an MHD daemon of its own (internal polling, one epoll loop), fed by one accept
// loop that hands the connections out in turn (`ConnectionSpreader`: MHD's own pool let one worker take
// a whole burst of connections); MHD calls the access handler on those threads, so the handler must be
// thread-safe. The raw request target is
// captured by MHD's URI-log callback before MHD decodes anything; that object lives as the
// request's context until MHD's completion callback releases it. A file up to `inlineFileLimit`
// (a cached rendition, a thumbnail) is read into a buffer MHD frees, so its headers and body leave
// in one write: sending the headers alone and then sendfile cost a second send and a second wakeup
// of the client per request. Larger files go by `MHD_create_response_from_fd_at_offset64`
// (sendfile): their bodies are never copied. With `NativeContainment` and `MadeRendition`, a cached
// Medium jpg went from about 49 to 25–30 µs of server CPU per request (nginx: 21–24 µs).
//
// Limits (`ConnectionLimits`): the descriptor limit is raised to the hard limit at start; the accept
// loop accepts and at once closes connections over the total or per-client cap; `HeaderDeadline`
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
    private var daemons: [OpaquePointer] = []
    /// The listening socket and its accept loop, which hands each connection to the next worker.
    private var spreader: ConnectionSpreader?
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
        let descriptors = FileSystem.raiseDescriptorLimit()
        let headerDeadline = HeaderDeadline(seconds: limits.headerTimeout)
        self.headerDeadline = headerDeadline
        let slowPool = WorkPool(threads: slowThreads, queueLimit: 64, name: "oceq-slow")
        self.slowPool = slowPool
        let context = Unmanaged.passUnretained(self).toOpaque()
        let flags = UInt32(
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        let connectionLimit = limits.effectiveConnectionLimit(descriptors: descriptors)
        let listening: Int32
        do {
            listening = try HTTPServer.listen(host: host, port: port, backlog: max(1, limits.listenBacklog))
        } catch {
            headerDeadline.stop()
            slowPool.close()
            throw error
        }
        for _ in 0..<max(1, threads) {
            // 32 KiB per connection: room for a 16 KiB target and headers. MHD clears the pool on each
            // request, so a larger pool costs a memset per request (96 KiB halved file throughput).
            guard
                let worker = oceq_mhd_start_worker(
                    flags, accessHandler, context, completedHandler, context, uriLogHandler, context,
                    connectionNotifier, context, UInt32(connectionLimit), UInt32(max(1, limits.idleTimeout)),
                    32 * 1024)
            else {
                for started in daemons { CLibraries.mhd.MHD_stop_daemon(started) }
                daemons = []
                close(listening)
                headerDeadline.stop()
                slowPool.close()
                throw HTTPServerError.cannotListen(host: host, port: port)
            }
            daemons.append(worker)
        }
        self.port = HTTPServer.boundPort(listening)
        spreader = ConnectionSpreader(
            listening: listening, workers: daemons, totalLimit: connectionLimit,
            perClientLimit: max(0, limits.maximumConnectionsPerClient))
    }

    /// How many connections each worker thread was handed so far (for tests: a burst is shared out).
    @_spi(Testing) public var connectionsPerWorker: [Int] { spreader?.handedOut ?? [] }

    /// A socket bound to `host:port` and listening, exclusive (no SO_REUSEPORT; SO_REUSEADDR, so a
    /// restart is not refused by the last run's closing connections; IPv6 only for an IPv6 address).
    static func listen(host: String, port: Int, backlog: Int) throws -> Int32 {
        // The socket, or the errno of the step that failed (negated).
        let result = try withSocketAddress(host: host, port: port) { address, isIPv6 -> Int32 in
            let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return -errno }
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            if isIPv6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size)) }
            let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
            guard Glibc.bind(fd, address, length) == 0, Glibc.listen(fd, Int32(min(backlog, Int(Int32.max)))) == 0
            else {
                let failure = errno
                close(fd)
                return -failure
            }
            return fd
        }
        if result >= 0 { return result }
        if -result == EADDRINUSE { throw HTTPServerError.portInUse(port: port) }
        throw HTTPServerError.cannotListen(host: host, port: port)
    }

    /// The port `fd` is bound to.
    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return 0 }
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network order.
            Int(UInt16(raw[2]) << 8 | UInt16(raw[3]))
        }
    }

    /// MHD closed a connection: the accept loop no longer counts it.
    func connectionClosed(socket: Int32) {
        spreader?.closed(socket: socket)
    }

    /// Stops accepting, finishes in-flight requests and joins the pool threads.
    public func stop() {
        // No new connection first; then every suspended one must be resumed before MHD stops: finish
        // the slow answers.
        spreader?.stop()
        headerDeadline.stop()
        slowPool.close()
        for daemon in daemons { CLibraries.mhd.MHD_stop_daemon(daemon) }
        daemons = []
    }

    deinit { stop() }

    /// Connections closed so far for taking longer than the header deadline.
    public var connectionsPastHeaderDeadline: Int { headerDeadline.expiredCount.withLock { $0 } }

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
