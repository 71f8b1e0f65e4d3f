#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A loopback port that refuses connections for as long as this value lives: a TCP socket bound to
/// 127.0.0.1 that never listens.
///
/// Binding a port and closing it again is not enough: in a parallel test run another test's server
/// can take the port in between, and the "refused" request then reaches that server (seen: a 403
/// in an unrelated resume test). Holding the bound socket keeps the port out of everyone's reach.
public final class ClosedPort: @unchecked Sendable {
    /// The port number.
    public let port: Int
    private let descriptor: Int32

    /// Binds a fresh socket to an ephemeral loopback port.
    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ClosedPortError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw ClosedPortError(call: "bind", code: code)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:PORT`.
    public var origin: String { "http://127.0.0.1:\(port)" }

    deinit { close(descriptor) }
}

/// A socket call that failed while reserving a closed port.
public struct ClosedPortError: Error, CustomStringConvertible {
    /// The call: `socket` or `bind`.
    public let call: String
    /// Its errno.
    public let code: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
