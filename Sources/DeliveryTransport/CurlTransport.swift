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
