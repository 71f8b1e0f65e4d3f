import Foundation

/// A deliberately plain HTTP/1.1 client over a POSIX socket, for tests that must see exactly what
/// the server sent: the status line, every header, a body cut short, a reset. Loopback only.
public struct RawHTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// True when the connection ended before `Content-Length` bytes arrived (or with a reset).
    public var truncated: Bool
    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

public enum RawHTTPClient {
    /// Sends `GET target` (or another method) to 127.0.0.1:`port` with `Connection: close`, waiting
    /// off the cooperative pool (`OffPool`).
    public static func send(
        port: Int, method: String = "GET", target: String, headers: [String: String] = [:], timeout: Double = 10
    ) async throws -> RawHTTPResponse {
        try await OffPool.run {
            try sendSynchronously(port: port, method: method, target: target, headers: headers, timeout: timeout)
        }
    }

    /// `send`, blocking the calling thread: only for code already on a thread of its own (inside
    /// `OffPool.run`, say, or `DispatchQueue.concurrentPerform` run there).
    public static func sendSynchronously(
        port: Int, method: String = "GET", target: String, headers: [String: String] = [:], timeout: Double = 10
    ) throws -> RawHTTPResponse {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let raw = try exchangeBlocking(port: port, bytes: Array(request.utf8), timeout: timeout, halfClose: false)
        return parse(raw.bytes, method: method, reset: raw.reset)
    }

    /// Writes raw bytes and reads until the peer closes; `reset` reports ECONNRESET. With `halfClose`,
    /// the write side is shut once the bytes are sent (the server then closes even a kept-alive connection).
    /// The exchange waits off the cooperative pool (`OffPool`).
    public static func exchange(
        port: Int, bytes: [UInt8], timeout: Double, halfClose: Bool = false
    ) async throws -> (bytes: [UInt8], reset: Bool) {
        try await OffPool.run { try exchangeBlocking(port: port, bytes: bytes, timeout: timeout, halfClose: halfClose) }
    }

    private static func exchangeBlocking(
        port: Int, bytes: [UInt8], timeout: Double, halfClose: Bool
    ) throws -> (bytes: [UInt8], reset: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            sent += n
        }
        if halfClose { shutdown(fd, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var reset = false
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
            } else {
                if n < 0 { reset = errno == ECONNRESET || errno == EAGAIN }
                break
            }
        }
        return (received, reset)
    }

    public static func parse(_ raw: [UInt8], method: String, reset: Bool) -> RawHTTPResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd = -1
        if raw.count >= 4 {
            for i in 0...(raw.count - 4) where Array(raw[i..<(i + 4)]) == separator {
                headerEnd = i
                break
            }
        }
        guard headerEnd >= 0 else { return RawHTTPResponse(status: 0, headers: [:], body: raw, truncated: true) }
        let head = String(decoding: raw[0..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let body = Array(raw[(headerEnd + 4)...])
        var truncated = reset
        if method != "HEAD", status != 304, let length = headers["content-length"].flatMap(Int.init),
            body.count < length
        {
            truncated = true
        }
        return RawHTTPResponse(status: status, headers: headers, body: body, truncated: truncated)
    }
}
