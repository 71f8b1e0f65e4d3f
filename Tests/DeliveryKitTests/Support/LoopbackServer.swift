// A tiny HTTP/1.1 server on 127.0.0.1 (port 0) for the libcurl transport tests: one thread
// accepts, one thread per connection reads request heads and answers with whatever the test's
// handler says, including the failures a real server produces (cut bodies, resets, stalls,
// redirect loops). Keep-alive is honoured so connection reuse can be observed. Not a general
// server: GET only, no request bodies, no TLS.

import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#endif

final class LoopbackServer: Sendable {
    struct Request: Sendable {
        var method: String
        /// Path and query as sent.
        var target: String
        var headers: [HTTPHeader]
        /// Which accepted connection carried it (0, 1, ...).
        var connection: Int

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    enum Action: Sendable {
        /// A complete response (Content-Length added).
        case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
        /// Announces `declaredLength` bytes, sends `body`, then closes.
        case cutShort(status: Int, headers: [(String, String)] = [], body: [UInt8], declaredLength: Int)
        /// Resets the connection (RST) without answering.
        case reset
        /// Sends the head and `body`, then stays silent for `seconds`.
        case stall(body: [UInt8], declaredLength: Int, seconds: Double)

        static func text(_ status: Int, _ body: String, headers: [(String, String)] = []) -> Action {
            .respond(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(body.utf8))
        }
    }

    let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Action
    // File descriptors are shut down and closed only under this lock, so a number recycled by
    // another test's socket is never touched.
    private let state = Locked<(requests: [Request], connections: Int, open: Set<Int32>, stopped: Bool, closed: Bool)>(
        ([], 0, [], false, false))

    init(_ handler: @escaping @Sendable (Request) -> Action) throws {
        self.handler = handler
        // Close-on-exec, as the sockets it accepts: a child another test spawns meanwhile must not hold a
        // connection open after this server closed it (the client would wait for the rest of a body).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw TestFailure("bind/listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        spawnThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`
    var origin: String { "http://127.0.0.1:\(port)" }

    var requests: [Request] { state.withLock { $0.requests } }

    var connectionCount: Int { state.withLock { $0.connections } }

    func stop() {
        state.withLock { s in
            guard !s.stopped else { return }
            s.stopped = true
            if !s.closed { shutdown(listener, Int32(SHUT_RDWR)) }
            for fd in s.open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            let index = state.withLock { s -> Int? in
                if s.stopped {
                    close(fd)
                    return nil
                }
                s.connections += 1
                s.open.insert(fd)
                return s.connections - 1
            }
            guard let index else { break }
            // Close-on-exec (Glibc's module has no accept4; the window before this is microseconds).
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            spawnThread { [self] in serve(fd, index) }
        }
        state.withLock { s in
            s.closed = true
            close(listener)
        }
    }

    private func serve(_ fd: Int32, _ connection: Int) {
        var buffer: [UInt8] = []
        defer {
            state.withLock { s in
                s.open.remove(fd)
                close(fd)
            }
        }
        while true {
            guard let head = readHead(fd, &buffer) else { return }
            guard let request = parse(head, connection) else {
                sendAll(fd, Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                return
            }
            state.withLock { $0.requests.append(request) }
            switch handler(request) {
            case .respond(let status, let headers, let body):
                sendAll(fd, headBytes(status, headers, length: body.count) + body)
                if request.header("Connection")?.lowercased() == "close" { return }
            case .cutShort(let status, let headers, let body, let declared):
                sendAll(fd, headBytes(status, headers, length: declared) + body)
                return
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                return
            case .stall(let body, let declared, let seconds):
                sendAll(fd, headBytes(200, [], length: declared) + body)
                usleep(UInt32(seconds * 1_000_000))
                return
            }
        }
    }

    private func headBytes(_ status: Int, _ headers: [(String, String)], length: Int) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPError.reason(status) ?? "Status")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !headers.contains(where: { $0.0.lowercased() == "content-length" }) {
            text += "Content-Length: \(length)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// Reads up to the blank line ending a request head; nil at EOF. A first byte that cannot
    /// start a request (a TLS ClientHello) returns what was read so it is answered with a 400.
    private func readHead(_ fd: Int32, _ buffer: inout [UInt8]) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let first = buffer.first, !(0x41...0x5A).contains(first) { defer { buffer.removeAll() }; return buffer }
            if let end = findBlankLine(buffer) {
                let head = Array(buffer[..<end])
                buffer.removeFirst(end + 4)
                return head
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private func findBlankLine(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func parse(_ head: [UInt8], _ connection: Int) -> Request? {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1") else { return nil }
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                HTTPHeader(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        return Request(method: String(parts[0]), target: String(parts[1]), headers: headers, connection: connection)
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }
}

/// Runs `body` on a new detached POSIX thread.
func spawnThread(_ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    precondition(status == 0)
    pthread_detach(thread)
}
