// The libcurl transport: one multi handle driven by one engine thread.
//
// The engine thread sets libcurl up (`curl_global_init` once per process, then its multi handle) before it
// takes the first transfer, so creating a transport costs its caller a thread start only; a program that
// will connect soon calls `CurlTransport.prepare()` first, which starts an engine with the default options
// at once: its thread runs `curl_global_init` (OpenSSL reading its configuration: about 2 M instructions)
// while the program starts, and the first transport with those options takes that engine.
//
// `perform` wraps a request in a `CurlTransfer` and hands it to the engine through a locked queue,
// waking the thread with `curl_multi_wakeup`. The thread adds transfers to the multi handle (a
// transfer of a `TransferLane` that is full waits in the lane until one of its transfers ends),
// calls `curl_multi_perform`, collects finished transfers from `curl_multi_info_read` and sleeps
// in `curl_multi_poll`. Body bytes go from libcurl's write callback straight into the sink on the
// engine thread; nothing is buffered here. Connections, TLS sessions and DNS results live in the
// multi handle, so they are reused across requests; easy handles are reset and kept for reuse too.
// HTTP/2 is negotiated over TLS when the server offers it and requests multiplex on one
// connection. libcurl reads `http_proxy` / `https_proxy` / `no_proxy` itself.

import CCurl
import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A `Transport` on libcurl.
public final class CurlTransport: Transport {
    /// Connection settings.
    public struct Options: Sendable, Hashable {
        /// Seconds allowed for connecting (DNS, TCP, TLS).
        public var connectTimeout: Double
        /// A transfer slower than `lowSpeedLimit` bytes/s for `lowSpeedTime` seconds is aborted as
        /// timed out. By default fewer than 1024 bytes in 30 seconds: a server that drips a byte a
        /// second ends there instead of holding a download for days.
        public var lowSpeedLimit: Int
        /// See `lowSpeedLimit`.
        public var lowSpeedTime: Int
        /// Skip TLS certificate and host verification (only when the user asks with `--insecure`).
        public var insecure: Bool
        /// Redirects followed before `redirectLoop`.
        public var maxRedirects: Int
        /// A CA bundle instead of the system's.
        public var caBundle: String?
        /// Hosts never reached through a proxy (`*` for all); nil keeps `no_proxy` from the environment.
        public var noProxy: String?
        /// Connections per host (0: no limit).
        public var maxConnectionsPerHost: Int
        /// libcurl's receive buffer per transfer, in bytes. 512 KiB: a large download arrives in
        /// fewer, larger callbacks and writes (measured on a 1 GiB file over loopback: about a tenth
        /// less CPU than 128 KiB); the buffer's pages are touched only as far as a response fills it.
        public var receiveBufferSize: Int

        /// Options; the defaults suit a delivery server on the internet.
        public init(
            connectTimeout: Double = 15, lowSpeedLimit: Int = 1024, lowSpeedTime: Int = 30, insecure: Bool = false,
            maxRedirects: Int = 10, caBundle: String? = nil, noProxy: String? = nil, maxConnectionsPerHost: Int = 0,
            receiveBufferSize: Int = 512 << 10
        ) {
            self.connectTimeout = connectTimeout
            self.lowSpeedLimit = lowSpeedLimit
            self.lowSpeedTime = lowSpeedTime
            self.insecure = insecure
            self.maxRedirects = maxRedirects
            self.caBundle = caBundle
            self.noProxy = noProxy
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.receiveBufferSize = receiveBufferSize
        }
    }

    /// The settings every transfer uses.
    public let options: Options
    private let engine: CurlEngine

    /// Starts an engine with the default options, whose thread sets libcurl up (`curl_global_init`, then its
    /// multi handle) while the caller goes on; the first transport made with the default options takes it.
    /// Once per process; later calls do nothing.
    public static func prepare() {
        _ = CurlEngine.preparing
    }

    /// A transport with its own multi handle and engine thread (the one `prepare` started, when it has the
    /// default options and no transport took it yet).
    public init(options: Options = Options()) {
        self.options = options
        if let prepared = CurlEngine.takePrepared(options: options) {
            engine = prepared
        } else {
            engine = CurlEngine(options: options)
            engine.start()
        }
    }

    deinit {
        engine.stop()
    }

    /// Queues the transfer on the engine thread and waits for it; cancelling the task aborts it. The engine
    /// thread resumes the caller where it runs (its actor), with no hop through the pool in between.
    nonisolated(nonsending) public func perform(
        _ request: HTTPRequest, into sink: any ResponseSink
    ) async throws(TransportError) -> HTTPResponseHead {
        let transfer = CurlTransfer(request: request, sink: sink, options: options, lane: TransferLane.current)
        let engine = self.engine
        // The caller reads the sink next, which the engine thread wrote.
        defer { transfer.joinEngine() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (continuation: CheckedContinuation<HTTPResponseHead, any Error>) in
                    transfer.setContinuation(continuation)
                    engine.submit(transfer)
                }
            } onCancel: {
                engine.cancel(transfer)
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(.cancelled, message: "\(error)")
        }
    }
}

/// The multi handle and the thread that drives it.
final class CurlEngine: @unchecked Sendable {
    /// `curl_global_init`, once per process, before any handle.
    static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The engine `CurlTransport.prepare` started, until a transport takes it.
    private static let prepared = Locked<CurlEngine?>(nil)

    /// An engine with the default options started ahead of need (`CurlTransport.prepare`), once.
    static let preparing: Void = {
        let engine = CurlEngine(options: CurlTransport.Options())
        engine.start()
        prepared.withLock { $0 = engine }
    }()

    /// The engine started ahead, if it has `options` and no transport took it yet.
    static func takePrepared(options: CurlTransport.Options) -> CurlEngine? {
        prepared.withLock { engine in
            guard let found = engine, found.options == options else { return nil }
            engine = nil
            return found
        }
    }

    struct Shared {
        var pending: [CurlTransfer] = []
        var cancels: [CurlTransfer] = []
        var stopping = false
        var closed = false
        /// The engine thread is in (or about to enter) `curl_multi_poll`: only then do `submit`,
        /// `cancel` and `stop` wake it. While it is awake it takes their work on its next turn, and a
        /// wake-up would only cost a write, a `poll` return and an idle turn (once a file at 500).
        var sleeping = false
        /// The multi handle, once the engine thread has made it: until then there is no one to wake.
        var multi: MultiHandle?
    }

    /// The multi handle, which other threads only wake (`curl_multi_wakeup` is thread-safe).
    struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    let options: CurlTransport.Options
    let shared = Locked(Shared())
    // Engine-thread state.
    private var active: [Int: CurlTransfer] = [:]
    private var idle: [UnsafeMutableRawPointer] = []
    /// Transfers waiting in their lanes for a place.
    private var waitingInLanes = 0
    /// Whether a transfer was added to the multi handle since the last `curl_multi_perform`.
    private var begunSincePerform = false

    init(options: CurlTransport.Options) {
        self.options = options
    }

    func start() {
        DetachedThread.start { [self] in run() }
    }

    /// libcurl's set-up, on the engine thread before its first transfer.
    private func makeMulti() -> UnsafeMutableRawPointer {
        _ = CurlEngine.globalInit
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed") }
        _ = oceq_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = oceq_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 64)
        if options.maxConnectionsPerHost > 0 {
            _ = oceq_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnectionsPerHost)
        }
        return multi
    }

    func stop() {
        shared.withLock { state in
            state.stopping = true
            if !state.closed, state.sleeping, let multi = state.multi { _ = curl_multi_wakeup(multi.pointer) }
        }
    }

    func submit(_ transfer: CurlTransfer) {
        let refused = shared.withLock { state -> Bool in
            if transfer.cancelRequested || state.closed { return true }
            state.pending.append(transfer)
            if state.sleeping, let multi = state.multi { _ = curl_multi_wakeup(multi.pointer) }
            return false
        }
        if refused { transfer.resume(.failure(TransportError(.cancelled, message: "cancelled"))) }
    }

    func cancel(_ transfer: CurlTransfer) {
        let removed = shared.withLock { state -> Bool in
            transfer.cancelRequested = true
            if let index = state.pending.firstIndex(where: { $0 === transfer }) {
                state.pending.remove(at: index)
                return true
            }
            state.cancels.append(transfer)
            if !state.closed, state.sleeping, let multi = state.multi { _ = curl_multi_wakeup(multi.pointer) }
            return false
        }
        if removed { transfer.resume(.failure(TransportError(.cancelled, message: "cancelled"))) }
    }

    private func run() {
        let multi = makeMulti()
        // From here on `submit`, `cancel` and `stop` wake the thread; what they queued before is taken below.
        shared.withLock { $0.multi = MultiHandle(pointer: multi) }
        var running: Int32 = 0
        while true {
            let idleNow = active.isEmpty && waitingInLanes == 0
            let (adds, cancels, closed) = shared.withLock { state -> ([CurlTransfer], [CurlTransfer], Bool) in
                let taken = (state.pending, state.cancels)
                state.pending.removeAll()
                state.cancels.removeAll()
                if state.stopping && taken.0.isEmpty && idleNow { state.closed = true }
                return (taken.0, taken.1, state.closed)
            }
            if closed { break }
            for transfer in adds { admit(transfer, on: multi) }
            for transfer in cancels {
                if let easy = transfer.easy, active[Int(bitPattern: easy)] === transfer {
                    // Removed in mid-transfer: libcurl 7.88 then refuses some options on the reset
                    // handle (CURLOPT_BUFFERSIZE gave curl 43 to every later transfer that got it).
                    finish(
                        transfer, on: multi, .failure(TransportError(.cancelled, message: "cancelled")), reuse: false)
                } else if let lane = transfer.lane, lane.remove(transfer) {
                    waitingInLanes -= 1
                    transfer.resume(.failure(TransportError(.cancelled, message: "cancelled")))
                }
            }
            begunSincePerform = false
            _ = curl_multi_perform(multi, &running)
            drainMessages(multi)
            // A transfer that ended made room for a waiting one: send its request before sleeping.
            if begunSincePerform { continue }
            // Sleep only when nothing was queued meanwhile (the queue is looked at under the lock
            // that `sleeping` is set under, so what comes after wakes the thread).
            let idleAfter = active.isEmpty && waitingInLanes == 0
            let sleeps = shared.withLock { state -> Bool in
                guard state.pending.isEmpty, state.cancels.isEmpty, !(state.stopping && idleAfter) else { return false }
                state.sleeping = true
                return true
            }
            guard sleeps else { continue }
            var descriptors: Int32 = 0
            _ = curl_multi_poll(multi, nil, 0, active.isEmpty ? 10_000 : 1000, &descriptors)
            shared.withLock { $0.sleeping = false }
        }
        for easy in idle { curl_easy_cleanup(easy) }
        idle.removeAll()
        curl_multi_cleanup(multi)
    }

    private func drainMessages(_ multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard oceq_curl_msg_is_done(message) != 0, let easy = message.pointee.easy_handle,
                let transfer = active[Int(bitPattern: easy)]
            else { continue }
            let code = oceq_curl_msg_result(message)
            finish(transfer, on: multi, transfer.outcome(code))
        }
    }

    /// Begins `transfer`, or queues it in its lane when the lane is full.
    private func admit(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
        if let lane = transfer.lane, !lane.hasRoom {
            lane.enqueue(transfer)
            waitingInLanes += 1
            return
        }
        begin(transfer, on: multi)
    }

    private func begin(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
        guard var easy = idle.popLast() ?? curl_easy_init() else {
            transfer.resume(.failure(TransportError(.other(2), message: "curl_easy_init failed")))
            return
        }
        transfer.easy = easy
        var code = transfer.configure()
        if code != CURLE_OK, let fresh = curl_easy_init() {
            // A recycled handle may refuse an option a new one takes: configure a new one once.
            transfer.release()
            curl_easy_cleanup(easy)
            easy = fresh
            transfer.easy = easy
            code = transfer.configure()
        }
        guard code == CURLE_OK else {
            transfer.release()
            recycle(easy)
            let kind: TransportError.Kind = code == CURLE_URL_MALFORMAT ? .invalidURL : .other(Int(code.rawValue))
            transfer.resume(.failure(TransportError(kind, message: String(cString: curl_easy_strerror(code)))))
            return
        }
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.release()
            recycle(easy)
            transfer.resume(.failure(TransportError(.other(0), message: "curl_multi_add_handle failed")))
            return
        }
        active[Int(bitPattern: easy)] = transfer
        transfer.lane?.running += 1
        begunSincePerform = true
    }

    private func finish(
        _ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer,
        _ outcome: Result<HTTPResponseHead, TransportError>, reuse: Bool = true
    ) {
        guard let easy = transfer.easy else { return }
        _ = curl_multi_remove_handle(multi, easy)
        active[Int(bitPattern: easy)] = nil
        transfer.release()
        if reuse {
            recycle(easy)
        } else {
            curl_easy_cleanup(easy)
        }
        if let lane = transfer.lane {
            // The next waiting transfer starts before the task of this one is resumed.
            lane.running -= 1
            while lane.hasRoom, let next = lane.dequeue() {
                waitingInLanes -= 1
                // A waiting transfer cancelled since this loop took the cancels (its task is being
                // cancelled with this one's) ends here instead of sending its request.
                if shared.withLock({ _ in next.cancelRequested }) {
                    next.resume(.failure(TransportError(.cancelled, message: "cancelled")))
                } else {
                    begin(next, on: multi)
                }
            }
        }
        transfer.resume(outcome)
    }

    private func recycle(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        if idle.count < 32 {
            idle.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }
}

/// One request in flight: its easy handle, headers, callbacks' state and continuation.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    let sink: any ResponseSink
    let options: CurlTransport.Options
    /// The lane that bounds this transfer with others of its batch, if any.
    let lane: TransferLane?
    /// Guarded by the engine's lock.
    var cancelRequested = false
    private let continuation = Locked<CheckedContinuation<HTTPResponseHead, any Error>?>(nil)
    // Engine-thread state.
    var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var errorBuffer: UnsafeMutablePointer<CChar>?
    private var headerLines: [HTTPHeader] = []
    private(set) var head: HTTPResponseHead?
    private(set) var bodyBytes: Int64 = 0
    private var sinkFailed = false

    init(request: HTTPRequest, sink: any ResponseSink, options: CurlTransport.Options, lane: TransferLane? = nil) {
        self.request = request
        self.sink = sink
        self.options = options
        self.lane = lane
    }

    func setContinuation(_ value: CheckedContinuation<HTTPResponseHead, any Error>) {
        continuation.withLock { $0 = value }
    }

    /// Resumes the waiting task, once.
    func resume(_ outcome: Result<HTTPResponseHead, TransportError>) {
        let waiting = continuation.withLock { value -> CheckedContinuation<HTTPResponseHead, any Error>? in
            defer { value = nil }
            return value
        }
        switch outcome {
        case .success(let head): waiting?.resume(returning: head)
        case .failure(let error): waiting?.resume(throwing: error)
        }
    }

    /// Takes the lock `resume` took after the engine's last call into the sink. Resuming the
    /// continuation already orders those calls before the task's next step, but Swift's
    /// concurrency runtime is not instrumented for ThreadSanitizer on Linux, so without this edge
    /// TSan reports every read of a sink after `perform` as a race with the engine thread.
    func joinEngine() {
        continuation.withLock { _ in }
    }

    /// Sets every option of the easy handle for this request.
    func configure() -> CURLcode {
        guard let easy else { return CURLE_FAILED_INIT }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        buffer[0] = 0
        errorBuffer = buffer
        for header in request.headers {
            let line = "\(header.name): \(header.value)"
            guard let list = curl_slist_append(headerList, line) else { return CURLE_OUT_OF_MEMORY }
            headerList = list
        }
        func text(_ option: CURLoption, _ value: String) -> CURLcode {
            value.withCString { oceq_curl_setopt_string(easy, option, $0) }
        }
        let steps: [() -> CURLcode] = [
            { text(CURLOPT_URL, self.request.url) },
            { oceq_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(buffer)) },
            { oceq_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1) },
            { oceq_curl_setopt_long(easy, CURLOPT_HTTPGET, 1) },
            {
                self.request.method == "GET" || self.request.method == "POST"
                    ? CURLE_OK : text(CURLOPT_CUSTOMREQUEST, self.request.method)
            },
            { self.postBody(easy) },
            { text(CURLOPT_PROTOCOLS_STR, "http,https") },
            { text(CURLOPT_REDIR_PROTOCOLS_STR, "http,https") },
            { oceq_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1) },
            { oceq_curl_setopt_long(easy, CURLOPT_MAXREDIRS, self.options.maxRedirects) },
            { oceq_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(self.options.connectTimeout * 1000)) },
            { oceq_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, self.options.lowSpeedLimit) },
            { oceq_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, self.options.lowSpeedTime) },
            { oceq_curl_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)) },
            // Waiting for a connection to multiplex on suits HTTPS (HTTP/2 is negotiated there); over
            // plain HTTP it never comes, and libcurl 7.88 queued a batch's transfers on one busy
            // connection instead of opening more (strace of `download`: 72 of 74 on one socket).
            {
                self.request.url.prefix(6).lowercased() == "https:"
                    ? oceq_curl_setopt_long(easy, CURLOPT_PIPEWAIT, 1) : CURLE_OK
            },
            { oceq_curl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1) },
            { oceq_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, self.options.receiveBufferSize) },
            { oceq_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, self.options.insecure ? 0 : 1) },
            { oceq_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, self.options.insecure ? 0 : 2) },
            { self.options.caBundle.map { text(CURLOPT_CAINFO, $0) } ?? CURLE_OK },
            { self.options.noProxy.map { text(CURLOPT_NOPROXY, $0) } ?? CURLE_OK },
            { self.request.acceptCompressed ? text(CURLOPT_ACCEPT_ENCODING, "") : CURLE_OK },
            { oceq_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(self.headerList)) },
            { oceq_curl_setopt_write(easy, curlWriteCallback) },
            { oceq_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context) },
            { oceq_curl_setopt_header_fn(easy, curlHeaderCallback) },
            { oceq_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context) },
            { oceq_curl_setopt_pointer(easy, CURLOPT_PRIVATE, context) },
        ]
        for step in steps {
            let code = step()
            if code != CURLE_OK { return code }
        }
        return CURLE_OK
    }

    /// A POST's body, copied into the handle (nothing for GET).
    private func postBody(_ easy: UnsafeMutableRawPointer) -> CURLcode {
        guard let body = request.body else { return CURLE_OK }
        let size = oceq_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
        guard size == CURLE_OK else { return size }
        var bytes = body
        return bytes.withUnsafeMutableBytes { oceq_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
    }

    /// Frees the header list and error buffer (the easy handle is recycled by the engine).
    func release() {
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        errorBuffer?.deallocate()
        errorBuffer = nil
        easy = nil
    }

    /// One header line from libcurl (without its line break); a status line starts a new response
    /// (redirects, 100). Split and trimmed of spaces and tabs on bytes, then decoded.
    func receiveHeaderLine(_ line: Slice<UnsafeRawBufferPointer>) {
        if line.starts(with: "HTTP/".utf8) {
            headerLines.removeAll()
            return
        }
        guard head == nil, let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
            var bytes = bytes
            while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
            while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
            return String(decoding: bytes, as: UTF8.self)
        }
        let name = trimmed(line[..<colon])
        let value = trimmed(line[(colon + 1)...])
        if !name.isEmpty { headerLines.append(HTTPHeader(name, value)) }
    }

    /// Passes the head to the sink, once, before the first body byte.
    private func deliverHead() -> Bool {
        guard head == nil else { return !sinkFailed }
        var status = 0
        var version = 0
        if let easy {
            _ = oceq_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            _ = oceq_curl_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        }
        let versionText: String?
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): versionText = "1.0"
        case Int(CURL_HTTP_VERSION_1_1): versionText = "1.1"
        case Int(CURL_HTTP_VERSION_2_0): versionText = "2"
        case Int(CURL_HTTP_VERSION_3): versionText = "3"
        default: versionText = nil
        }
        let head = HTTPResponseHead(status: status, headers: headerLines, httpVersion: versionText)
        self.head = head
        do {
            try sink.receiveHead(head)
        } catch {
            sinkFailed = true
        }
        return !sinkFailed
    }

    /// Body bytes from libcurl; false aborts the transfer.
    func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard deliverHead() else { return false }
        bodyBytes += Int64(chunk.count)
        do {
            try sink.receiveBody(chunk)
            return true
        } catch {
            sinkFailed = true
            return false
        }
    }

    /// The result of a finished transfer.
    func outcome(_ code: CURLcode) -> Result<HTTPResponseHead, TransportError> {
        if code == CURLE_OK {
            guard deliverHead(), let head else { return .failure(error(.aborted, code)) }
            return .success(head)
        }
        if sinkFailed { return .failure(error(.aborted, code)) }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .failure(error(.unknownHost, code))
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            if let easy { _ = oceq_curl_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError) }
            return .failure(error(osError == Int(ETIMEDOUT) ? .timedOut : .connectionRefused, code))
        case CURLE_OPERATION_TIMEDOUT: return .failure(error(.timedOut, code))
        case CURLE_TOO_MANY_REDIRECTS: return .failure(error(.redirectLoop, code))
        case CURLE_PARTIAL_FILE: return .failure(error(.bodyCutShort, code))
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .failure(error(head == nil ? .connectionLost : .bodyCutShort, code))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .failure(error(.tls, code))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .failure(error(.invalidURL, code))
        case CURLE_ABORTED_BY_CALLBACK: return .failure(error(.cancelled, code))
        default: return .failure(error(.other(Int(code.rawValue)), code))
        }
    }

    private func error(_ kind: TransportError.Kind, _ code: CURLcode) -> TransportError {
        var message = errorBuffer.map { String(cString: $0) } ?? ""
        if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
        return TransportError(kind, message: message, head: head, bytesReceived: bodyBytes)
    }
}

private func curlWriteCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlHeaderCallback(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let context, let data else { return length }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    var bytes = UnsafeRawBufferPointer(start: data, count: length)[...]
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
    transfer.receiveHeaderLine(bytes)
    return length
}
