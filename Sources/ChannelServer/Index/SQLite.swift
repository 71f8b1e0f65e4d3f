// A minimal wrapper over sqlite3 for the channel index: connections, prepared statements with
// positional parameters, and the two SQL functions the compiled searches call.
//
// A connection is used by one thread at a time (the pool hands it out), so it is opened with
// SQLITE_OPEN_NOMUTEX and marked @unchecked Sendable.

import CSQLite
import FoundationEssentials

/// A failure inside SQLite or the index file (I/O, corruption, a bug in generated SQL): the
/// server's fault, not the request's.
public struct IndexStorageError: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String

    public var description: String { "index storage error \(code): \(message)" }
}

/// A value bound to a statement parameter.
enum SQLValue: Equatable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}

/// SQLite's functions, read once a connection has opened the library.
private var sqlite: oceq_sqlite3_api { CLibraries.sqlite }

final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    private var cacheOrder: [String] = []
    private static let cacheLimit = 64

    /// Opens `path`; read-only connections open the file as immutable (it never changes once
    /// built), so reads take no locks.
    init(path: String, readOnly: Bool) throws {
        let sqlite = try CLibraries.requireSQLite()
        var db: OpaquePointer?
        let rc: Int32
        if readOnly {
            rc = sqlite.sqlite3_open_v2(
                Self.immutableURI(path), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        } else {
            rc = sqlite.sqlite3_open_v2(
                path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard rc == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite.sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
            if let db { _ = sqlite.sqlite3_close_v2(db) }
            throw IndexStorageError(code: rc, message: "\(message) (\(path))")
        }
        handle = db
        _ = sqlite.sqlite3_extended_result_codes(db, 1)
        SQLFunctions.register(on: db)
    }

    /// Opens the index's main file read-only with its side file attached (`IndexSchema`), both
    /// through the descriptors `files` holds.
    convenience init(index files: IndexFiles) throws {
        try self.init(path: files.mainName, readOnly: true)
        try execute("ATTACH '\(Self.immutableURI(files.sideName))' AS \(IndexSchema.sideSchema)")
    }

    deinit {
        cache.removeAll()
        _ = sqlite.sqlite3_close_v2(handle)
    }

    /// The URI that opens `path` read-only as a file that never changes (no locks taken).
    private static func immutableURI(_ path: String) -> String { "file:" + uriEscaped(path) + "?immutable=1" }

    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += String(cFormat: "%%%02X", b)
            }
        }
        return out
    }

    func error(_ rc: Int32, _ context: String = "") -> IndexStorageError {
        let message = sqlite.sqlite3_errmsg(handle).map { String(cString: $0) } ?? "unknown error"
        return IndexStorageError(code: rc, message: context.isEmpty ? message : "\(message) in: \(context)")
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite.sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "error"
            sqlite.sqlite3_free(errorMessage)
            throw IndexStorageError(code: rc, message: "\(message) in: \(sql.prefix(200))")
        }
    }

    /// A new prepared statement; the caller owns it.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite.sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, String(sql.prefix(300))) }
        return SQLiteStatement(statement, connection: self)
    }

    /// A prepared statement kept for reuse on this connection (reset, bindings cleared).
    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        cache[sql] = statement
        cacheOrder.append(sql)
        if cacheOrder.count > Self.cacheLimit {
            cache[cacheOrder.removeFirst()] = nil
        }
        return statement
    }
}

final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { _ = sqlite.sqlite3_finalize(handle) }

    func reset() {
        _ = sqlite.sqlite3_reset(handle)
        _ = sqlite.sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLValue]) throws {
        for (i, value) in values.enumerated() { try bind(Int32(i + 1), value) }
    }

    func bind(_ index: Int32, _ value: SQLValue) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite.sqlite3_bind_null(handle, index)
        case .int(let v): rc = sqlite.sqlite3_bind_int64(handle, index, v)
        case .double(let v): rc = sqlite.sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = bindText(index, v)
        case .blob(let v):
            rc = v.withUnsafeBytes { bytes in
                // A non-null pointer even for an empty blob (NULL would bind SQL NULL).
                withUnsafeBytes(of: 0) { zero in
                    sqlite.sqlite3_bind_blob(
                        handle, index, bytes.baseAddress ?? zero.baseAddress!, Int32(bytes.count),
                        oceq_sqlite3_transient())
                }
            }
        }
        if rc != SQLITE_OK { throw connection.error(rc, "bind") }
    }

    private func bindText(_ index: Int32, _ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    return sqlite.sqlite3_bind_text(handle, index, base, Int32(chars.count), oceq_sqlite3_transient())
                }
                return sqlite.sqlite3_bind_text(handle, index, "", 0, oceq_sqlite3_transient())
            }
        }
    }

    /// Advances; true while a row is available.
    func step() throws -> Bool {
        let rc = sqlite.sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc, sqlite.sqlite3_sql(handle).map { String(cString: $0).prefix(300).description } ?? "")
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLValue]) throws {
        _ = sqlite.sqlite3_reset(handle)
        try bind(values)
        _ = try step()
        _ = sqlite.sqlite3_reset(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite.sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite.sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite.sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The bytes of a blob (or text) column, valid only inside `body`.
    func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite.sqlite3_column_blob(handle, column)  // before column_bytes, as SQLite asks
        let count = Int(sqlite.sqlite3_column_bytes(handle, column))
        guard let pointer, count > 0 else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite.sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite.sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

}
