// HeaderDeadline: closes connections that take too long to send a request's headers (slowloris).
//
// MHD's own connection timeout is an idle timeout: every byte received restarts it, so a client
// trickling a byte every few seconds holds its connection (and a descriptor) for ever. Here each
// connection's socket is registered when MHD opens it and stamped "waiting for headers" until the
// access handler first sees the request (headers complete); the stamp restarts when a request
// completes (a kept-alive connection waits for the next request's headers). A watchdog thread
// shuts down (shutdown(2), not close: MHD still owns the descriptor) every socket whose stamp is
// older than the deadline; MHD then reads end-of-file and closes the connection itself. A socket
// is unregistered in MHD's "closed" notification, which MHD sends before it closes the descriptor,
// and the watchdog shuts sockets down under the same lock, so it never touches a reused descriptor.
import Dispatch
import FoundationEssentials
import Glibc
import OCEQCore

/// The header deadline's table of sockets and its watchdog thread.
final class HeaderDeadline: @unchecked Sendable {
    /// Socket -> when it started waiting for headers (uptime nanoseconds), or nil while a request is answered.
    private let waiting = Locked<[Int32: UInt64?]>([:])
    private let deadline: UInt64
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled by `stop`, so the watchdog ends without finishing its nap.
    private let wake = DispatchSemaphore(value: 0)
    /// Connections closed for missing the deadline (for tests).
    let expiredCount = Locked(0)

    /// A watchdog closing connections whose headers take longer than `seconds`.
    init(seconds: Double) {
        deadline = UInt64(max(0.05, seconds) * 1e9)
        let interval = min(1.0, max(0.02, seconds / 4))
        DetachedThread.start(name: "oceq-header-deadline") { [self] in
            while !stopped.withLock({ $0 }) {
                _ = wake.wait(timeout: .now() + interval)
                expire()
            }
            finished.signal()
        }
    }

    /// Stops the watchdog and waits for it.
    func stop() {
        if !stopped.testAndSet() {
            wake.signal()
            finished.wait()
        }
    }

    /// A new connection: waiting for its first request's headers.
    func opened(_ socket: Int32) {
        let now = DispatchTime.now().uptimeNanoseconds
        waiting.withLock { $0[socket] = .some(now) }
    }

    /// The headers of the connection's request are in: no deadline while it is answered.
    func headersReceived(_ socket: Int32) {
        waiting.withLock { table in
            if table[socket] != nil { table[socket] = .some(nil) }
        }
    }

    /// A request finished: the connection now waits for the next request's headers.
    func requestFinished(_ socket: Int32) {
        let now = DispatchTime.now().uptimeNanoseconds
        waiting.withLock { table in
            if table[socket] != nil { table[socket] = .some(now) }
        }
    }

    /// The connection is closed (MHD has not closed the descriptor yet).
    func closed(_ socket: Int32) {
        _ = waiting.withLock { $0.removeValue(forKey: socket) }
    }

    private func expire() {
        let now = DispatchTime.now().uptimeNanoseconds
        waiting.withLock { table in
            var late: [Int32] = []
            for (socket, since) in table {
                if let since = since ?? nil, now > since, now - since > deadline { late.append(socket) }
            }
            guard !late.isEmpty else { return }
            expiredCount.withLock { $0 += late.count }  // counted before the client can see the close
            for socket in late {
                shutdown(socket, Int32(SHUT_RDWR))
                table[socket] = .some(nil)  // shut down once; MHD's close notification removes it
            }
        }
    }
}
