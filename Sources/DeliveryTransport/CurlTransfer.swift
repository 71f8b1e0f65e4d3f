// One request in flight on a `CurlEngine`: its easy handle, the callbacks libcurl calls on the
// engine thread (head lines, body bytes into the sink) and the continuation that gets the answer.

import CCurl
import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
        // Each option is set only while every one before it was: the first failure is the answer.
        // (A step is an autoclosure on the stack: an array of 28 closures made 28 allocations for
        // each transfer, about 13 K instructions a request; callgrind.)
        var code = CURLE_OK
        func set(_ step: @autoclosure () -> CURLcode) {
            if code == CURLE_OK { code = step() }
        }
        set(text(CURLOPT_URL, request.url))
        set(oceq_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(buffer)))
        set(oceq_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set(oceq_curl_setopt_long(easy, CURLOPT_HTTPGET, 1))
        set(
            request.method == "GET" || request.method == "POST" ? CURLE_OK : text(CURLOPT_CUSTOMREQUEST, request.method)
        )
        set(postBody(easy))
        set(text(CURLOPT_PROTOCOLS_STR, "http,https"))
        set(text(CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        set(oceq_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1))
        set(oceq_curl_setopt_long(easy, CURLOPT_MAXREDIRS, options.maxRedirects))
        set(oceq_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(options.connectTimeout * 1000)))
        set(oceq_curl_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, options.lowSpeedLimit))
        set(oceq_curl_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, options.lowSpeedTime))
        set(oceq_curl_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        // Waiting for a connection to multiplex on suits HTTPS (HTTP/2 is negotiated there); over
        // plain HTTP it never comes, and libcurl 7.88 queued a batch's transfers on one busy
        // connection instead of opening more (strace of `download`: 72 of 74 on one socket).
        set(
            request.url.prefix(6).lowercased() == "https:" ? oceq_curl_setopt_long(easy, CURLOPT_PIPEWAIT, 1) : CURLE_OK
        )
        set(oceq_curl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        set(oceq_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, options.receiveBufferSize))
        set(oceq_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, options.insecure ? 0 : 1))
        set(oceq_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, options.insecure ? 0 : 2))
        set(options.caBundle.map { text(CURLOPT_CAINFO, $0) } ?? CURLE_OK)
        set(options.noProxy.map { text(CURLOPT_NOPROXY, $0) } ?? CURLE_OK)
        set(request.acceptCompressed ? text(CURLOPT_ACCEPT_ENCODING, "") : CURLE_OK)
        set(oceq_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)))
        set(oceq_curl_setopt_write(easy, curlWriteCallback))
        set(oceq_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        set(oceq_curl_setopt_header_fn(easy, curlHeaderCallback))
        set(oceq_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        set(oceq_curl_setopt_pointer(easy, CURLOPT_PRIVATE, context))
        return code
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
