@_spi(Testing) import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Slowloris, a busy port and slow answers: the server's limits, over loopback only.
@Suite("HTTP server limits", .serialized)
struct ServerLimitsTests {
    /// A TCP connection to 127.0.0.1:`port` from `source` (any 127.x.y.z address is loopback).
    static func connect(port: Int, from source: String = "127.0.0.1") -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Writes `text`; false when the peer is gone.
    static func send(_ fd: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// True when the server has closed (or reset) the connection, waiting at most `seconds`.
    static func isClosed(_ fd: Int32, within seconds: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0
    }

    /// A complete GET over a fresh connection from `source`; the status, or 0 when none came within `timeout`.
    static func get(port: Int, target: String, from source: String, timeout: Double = 20) -> Int {
        guard let fd = connect(port: port, from: source) else { return 0 }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard send(fd, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") else { return 0 }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        let line = String(decoding: received.prefix(while: { $0 != 13 }), as: UTF8.self)
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static let ok: HTTPServer.Handler = { _ in HTTPResponse(status: 200, body: .bytes(Array("ok".utf8))) }

    @Test("a client trickling its headers a byte at a time is cut off at the header deadline")
    func headerDeadline() throws {
        var limits = ConnectionLimits()
        limits.headerTimeout = 1
        let server = try HTTPServer(port: 0, threads: 2, limits: limits, handler: Self.ok)
        defer { server.stop() }
        let fd = try #require(Self.connect(port: server.port))
        defer { close(fd) }
        #expect(Self.send(fd, "GET / HTTP/1.1\r\n"))
        // MHD's idle timeout (30 s) restarts with every byte; only a deadline ends this. Bounded: 10 s.
        var closed = false
        for _ in 0..<40 where !closed {
            _ = Self.send(fd, "X")
            closed = Self.isClosed(fd, within: 0.25)
        }
        #expect(closed)
        #expect(server.connectionsPastHeaderDeadline >= 1)
    }

    @Test("300 trickling connections from one client: the per-client cap refuses most, others are answered")
    func slowloris() throws {
        var limits = ConnectionLimits()
        limits.maximumConnectionsPerClient = 50
        limits.headerTimeout = 120  // the cap alone, not the deadline, is under test here
        let server = try HTTPServer(port: 0, threads: 2, limits: limits, handler: Self.ok)
        defer { server.stop() }
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        for _ in 0..<300 {
            guard let fd = Self.connect(port: server.port) else { continue }
            sockets.append(fd)
            _ = Self.send(fd, "GET /items HTTP/1.1\r\nHost")
        }
        #expect(sockets.count == 300)
        // A trickle on every connection; those over the cap were closed by the server at once.
        var open: [Int32] = []
        for fd in sockets {
            _ = Self.send(fd, ":")
            if !Self.isClosed(fd, within: 0.01) { open.append(fd) }
        }
        #expect(open.count <= 50)
        #expect(open.count >= 40)
        // While the held ones are still open, another client is answered.
        #expect(Self.get(port: server.port, target: "/items", from: "127.0.0.2") == 200)
        #expect(open.allSatisfy { !Self.isClosed($0, within: 0) })
    }

    @Test("a burst of connections is shared out among the workers in turn, and each is answered on its own")
    func burstSharedOut() throws {
        // MHD's own pool let whichever worker woke first take the whole burst (all eight of wrk's
        // connections on one of two workers, in about half the runs), and keep it.
        let server = try HTTPServer(port: 0, threads: 3, handler: Self.ok)
        defer { server.stop() }
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        for _ in 0..<9 {
            if let fd = Self.connect(port: server.port) { sockets.append(fd) }
        }
        #expect(sockets.count == 9)
        for fd in sockets {
            var tv = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            #expect(Self.send(fd, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        }
        for fd in sockets {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = read(fd, &buffer, buffer.count)
            #expect(n > 0 && String(decoding: buffer[0..<max(0, n)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
        #expect(server.connectionsPerWorker == [3, 3, 3])
    }

    @Test("the total cap holds across the workers, and a closed connection frees its place")
    func totalCapAcrossWorkers() throws {
        var limits = ConnectionLimits()
        limits.maximumConnections = 4
        limits.headerTimeout = 120
        let server = try HTTPServer(port: 0, threads: 3, limits: limits, handler: Self.ok)
        defer { server.stop() }
        var sockets: [Int32] = []
        for client in 1...10 {
            if let fd = Self.connect(port: server.port, from: "127.0.0.\(client)") { sockets.append(fd) }
        }
        #expect(sockets.count == 10)
        var open: [Int32] = []
        for fd in sockets {
            _ = Self.send(fd, "GET / HTTP/1.1\r\nHost")
            if Self.isClosed(fd, within: 0.05) { close(fd) } else { open.append(fd) }
        }
        #expect(open.count == 4, "\(open.count) held of 10 with a cap of 4")
        // While they are held, a fifth is refused; once they are closed, the server answers again.
        #expect(Self.get(port: server.port, target: "/", from: "127.0.0.20", timeout: 2) == 0)
        for fd in open { close(fd) }
        var answered = 0
        for _ in 0..<50 where answered != 200 {
            answered = Self.get(port: server.port, target: "/", from: "127.0.0.21", timeout: 2)
            if answered != 200 { usleep(20_000) }
        }
        #expect(answered == 200)
    }

    @Test("the descriptor limit is raised to the hard limit")
    func descriptorLimit() throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        if limit.rlim_max != rlim_t.max, limit.rlim_cur == limit.rlim_max, limit.rlim_max > 4096 {
            var lowered = limit
            lowered.rlim_cur = limit.rlim_max - 1
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered)
        }
        let server = try HTTPServer(port: 0, threads: 1, handler: Self.ok)
        server.stop()
        var after = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &after) == 0)
        #expect(after.rlim_cur == after.rlim_max)
    }

    @Test("a port another server listens on is refused with 'port N is in use'")
    func portInUse() throws {
        let first = try HTTPServer(port: 0, threads: 1, handler: Self.ok)
        defer { first.stop() }
        #expect(throws: HTTPServerError.self) {
            let second = try HTTPServer(port: first.port, threads: 1, handler: Self.ok)
            second.stop()
        }
        do {
            _ = try HTTPServer(port: first.port, threads: 1, handler: Self.ok)
        } catch {
            #expect("\(error)" == "port \(first.port) is in use")
        }
    }

    @Test("`oceq serve` on a port another `oceq serve` holds exits 1 with one line")
    func servePortInUse() async throws {
        let cache = NSTemporaryDirectory() + "oceq-port-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let first = try await ServeProcess(
            export: TestChannel.fixtureZip, arguments: ["--token", "s3cr3t-t0ken"], cacheDirectory: cache)
        defer { first.stop() }
        #expect(first.port > 0)
        let second = try await OceqBinary.run([
            "serve", TestChannel.fixtureZip, "--token", "s3cr3t-t0ken", "--cache-dir", cache, "--host", "127.0.0.1",
            "--port", "\(first.port)",
        ])
        #expect(second.code == 1)
        #expect(!second.stdout.contains("listening on"))
        #expect(
            second.stderr.split(separator: "\n").last.map(String.init) == "oceq serve: port \(first.port) is in use")
    }

    @Test("JSON answers go on while slow answers are made on the slow pool")
    func slowAnswersDoNotBlock() async throws {
        let gate = DispatchSemaphore(value: 0)
        let started = Locked(0)
        let handler: HTTPServer.Handler = { request in
            guard request.target.hasPrefix("/slow") else { return Self.ok(request) }
            return .later {
                started.withLock { $0 += 1 }
                gate.wait()
                return HTTPResponse(status: 200, body: .bytes(Array("slow".utf8)))
            }
        }
        let server = try HTTPServer(port: 0, threads: 2, slowThreads: 2, handler: handler)
        let slow = DispatchGroup()
        let statuses = Locked<[Int]>([])
        // Threads of their own: Dispatch's global queue shares its threads with the cooperative
        // pool, and eight blocked requests there could keep this test from resuming to open the gate.
        for index in 0..<8 {
            slow.enter()
            Thread {
                let status = Self.get(port: server.port, target: "/slow/\(index)", from: "127.0.0.1")
                statuses.withLock { $0.append(status) }
                slow.leave()
            }.start()
        }
        // Both slow threads busy (and six waiting): without the pool, both request threads would be.
        for _ in 0..<200 where started.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(started.withLock { $0 } == 2)
        #expect(Self.get(port: server.port, target: "/items", from: "127.0.0.1", timeout: 10) == 200)
        #expect(statuses.withLock { $0.isEmpty })
        for _ in 0..<8 { gate.signal() }
        await OffPool.run { slow.wait() }
        #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 8))
        server.stop()
    }
}
