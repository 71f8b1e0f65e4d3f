// The server's listening socket and the loop that accepts its connections, handing them in turn to
// the worker daemons (`oceq_mhd_add_connection`), one connection to the next worker.
//
// MHD's own thread pool shares one listening socket among its workers, and a worker that wakes takes
// every connection waiting (up to ten in a row): a burst of connections, as a load generator or a
// proxy's pool opens them, could all land on one worker and stay there for their whole keep-alive
// life. Measured (2 CPUs, 100,000 items, 8 connections from wrk, pages of 100 whole items): in about
// half the runs one worker had all eight and used a whole CPU while the other used none, and the
// server answered 909-939 requests/s instead of 1,716-1,819. MHD hands an added connection to a pool
// worker only without a listening socket, which turns its pool off (microhttpd.h), so each worker is
// a daemon of its own with one thread, and the connections are handed out here.
//
// The limits MHD kept for its pool are kept here across the workers: connections over the total or
// over the per-client cap are accepted and closed at once, as before. A connection is counted from
// its accept to MHD's close notification (`closed(socket:)`), or to its hand-over failing. The
// listening socket stays exclusive (no SO_REUSEPORT), so a port another program holds is refused.

import CMicroHTTPD
import Dispatch
import Glibc
import OCEQCore

/// Accepts connections on one socket and hands them to the worker daemons in turn, within the limits.
final class ConnectionSpreader: @unchecked Sendable {
    /// The open connections (socket -> the client address they count against), and the hand-out.
    private struct Open {
        var clients: [Int32: [UInt8]] = [:]
        var perClient: [[UInt8]: Int] = [:]
        /// The worker the next connection goes to.
        var next = 0
        /// Connections handed to each worker so far.
        var handed: [Int]
    }

    private let listening: Int32
    private let workers: [OpaquePointer]
    private let totalLimit: Int
    private let perClientLimit: Int
    private let open: Locked<Open>
    private let stopped = Locked(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Spreads the connections of `listening` (bound and listening) over `workers`, from an accept
    /// loop started now on a thread of its own; at most `totalLimit` at once, and `perClientLimit`
    /// from one address (0: no cap).
    init(listening: Int32, workers: [OpaquePointer], totalLimit: Int, perClientLimit: Int) {
        self.listening = listening
        self.workers = workers
        self.totalLimit = max(1, totalLimit)
        self.perClientLimit = perClientLimit
        open = Locked(Open(handed: Array(repeating: 0, count: workers.count)))
        DetachedThread.start(name: "oceq-accept") { [self] in
            acceptLoop()
            finished.signal()
        }
    }

    /// How many connections each worker was handed so far, in order (for tests).
    var handedOut: [Int] { open.withLock { $0.handed } }

    /// Stops accepting and waits for the loop to end; the workers keep the connections they have.
    func stop() {
        guard !stopped.testAndSet() else { return }
        // Wakes the blocked accept (it fails with EINVAL once the socket is shut down).
        // SHUT_RDWR (2): naming the constant here hid it from HeaderDeadline.swift (Swift 6.3.1, the
        // importer's anonymous-enum constants), which failed to build.
        shutdown(listening, 2)
        finished.wait()
        close(listening)
    }

    /// MHD closed the connection on `socket` (its close notification): it no longer counts.
    func closed(socket: Int32) {
        open.withLock { state in
            guard let client = state.clients.removeValue(forKey: socket) else { return }
            let left = (state.perClient[client] ?? 1) - 1
            state.perClient[client] = left > 0 ? left : nil
        }
    }

    private func acceptLoop() {
        var storage = sockaddr_storage()
        while !stopped.withLock({ $0 }) {
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = oceq_accept_cloexec(listening, &storage, &length)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EAGAIN, EPROTO: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: let connections close before trying again.
                    usleep(10_000)
                    continue
                default: return  // shut down (EINVAL) or closed
                }
            }
            let client = Self.clientKey(storage)
            guard let worker = admit(fd, client: client) else {
                close(fd)
                continue
            }
            let added = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    oceq_mhd_add_connection(workers[worker], fd, $0, length)
                }
            }
            // Refused (MHD closed the socket): uncount it unless its close notification already did.
            if added != 1 { closed(socket: fd) }
            if added < 0 { close(fd) }
        }
    }

    /// Counts a new connection from `client` and picks its worker, or nil when a limit refuses it.
    private func admit(_ fd: Int32, client: [UInt8]) -> Int? {
        open.withLock { state -> Int? in
            guard state.clients.count < totalLimit else { return nil }
            let fromClient = state.perClient[client] ?? 0
            if perClientLimit > 0 && fromClient >= perClientLimit { return nil }
            state.clients[fd] = client
            state.perClient[client] = fromClient + 1
            let worker = state.next
            state.next = (state.next + 1) % workers.count
            state.handed[worker] += 1
            return worker
        }
    }

    /// The client's address bytes (IPv4 or IPv6, without the port): what the per-client cap counts by.
    static func clientKey(_ storage: sockaddr_storage) -> [UInt8] {
        var copy = storage
        return withUnsafeBytes(of: &copy) { raw -> [UInt8] in
            switch Int32(storage.ss_family) {
            case AF_INET:
                let offset = MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr) ?? 4
                return Array(raw[offset..<(offset + 4)])
            case AF_INET6:
                let offset = MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr) ?? 8
                return Array(raw[offset..<(offset + 16)])
            default:
                return []
            }
        }
    }
}
