import OCEQCore

/// Read-only connections to one index (its file and side file), handed to one thread at a time.
///
/// A search takes an idle connection or opens a new one, and gives it back afterwards; at most
/// `maximumIdle` are kept. Prepared statements stay cached on their connection.
final class ConnectionPool: Sendable {
    let path: String
    private let idle = Locked<[SQLiteConnection]>([])
    static let maximumIdle = 16

    init(path: String, first: SQLiteConnection? = nil) {
        self.path = path
        if let first { idle.withLock { $0.append(first) } }
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? SQLiteConnection(index: path)
        defer {
            idle.withLock { pool in
                if pool.count < Self.maximumIdle { pool.append(connection) }
            }
        }
        return try body(connection)
    }

    /// Closes the idle connections (those in use close when their search ends).
    func drain() {
        idle.withLock { $0.removeAll() }
    }
}
