import OCEQCore

/// Read-only connections to one index (its file and side file), handed to one thread at a time.
///
/// A search takes an idle connection or opens a new one, and gives it back afterwards; at most
/// `maximumIdle` are kept. Prepared statements stay cached on their connection.
final class ConnectionPool: Sendable {
    /// The two files every connection reads, held open (IndexFiles).
    let files: IndexFiles
    private let idle = Locked<[SQLiteConnection]>([])
    static let maximumIdle = 16

    init(files: IndexFiles, first: SQLiteConnection? = nil) {
        self.files = files
        if let first { idle.withLock { $0.append(first) } }
    }

    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? SQLiteConnection(index: files)
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
