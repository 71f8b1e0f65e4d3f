import Glibc

/// How many connections the server holds and for how long a client may take to send a request.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections held at once; more are accepted and closed at once. Capped at start by half the
    /// descriptor limit (each connection may also have a file open for its response).
    public var maximumConnections = 4096
    /// Connections held at once from one client address.
    public var maximumConnectionsPerClient = 128
    /// Seconds a connection may take to send a request's headers (from its opening, or from the end
    /// of its previous request); a slower one is closed.
    public var headerTimeout = 10.0
    /// Seconds a connection may stay silent (MHD's idle timeout).
    public var idleTimeout = 30
    /// Connections waiting in the kernel's accept queue.
    public var listenBacklog = 1024

    /// The defaults.
    public init() {}

    /// The connections held at once (`ConnectionSpreader`): `maximumConnections`, at most half the descriptors.
    func effectiveConnectionLimit(descriptors: Int) -> Int {
        max(1, min(maximumConnections, (descriptors - 64) / 2))
    }
}
