// A minimal wrapper over sqlite3 for the channel index: connections, prepared statements with
// positional parameters, and the two SQL functions the compiled searches call.
//
// A connection is used by one thread at a time (the pool hands it out), so it is opened with
// SQLITE_OPEN_NOMUTEX and marked @unchecked Sendable.

import CSQLite
import Foundation

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
}

final class SQLiteConnection: @unchecked Sendable {
    let handle: OpaquePointer
    private var cache: [String: SQLiteStatement] = [:]
    private var cacheOrder: [String] = []
    private static let cacheLimit = 64

    /// Opens `path`; read-only connections open the file as immutable (it never changes once
    /// built), so reads take no locks.
    init(path: String, readOnly: Bool) throws {
        var db: OpaquePointer?
        let rc: Int32
        if readOnly {
            let uri = "file:" + Self.uriEscaped(path) + "?immutable=1"
            rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        } else {
            rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw IndexStorageError(code: rc, message: "\(message) (\(path))")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        SQLFunctions.register(on: db)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += String(format: "%%%02X", b)
            }
        }
        return out
    }

    func error(_ rc: Int32, _ context: String = "") -> IndexStorageError {
        let message = String(cString: sqlite3_errmsg(handle))
        return IndexStorageError(code: rc, message: context.isEmpty ? message : "\(message) in: \(context)")
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "error"
            sqlite3_free(errorMessage)
            throw IndexStorageError(code: rc, message: "\(message) in: \(sql.prefix(200))")
        }
    }

    /// A new prepared statement; the caller owns it.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
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

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ values: [SQLValue]) throws {
        for (i, value) in values.enumerated() { try bind(Int32(i + 1), value) }
    }

    func bind(_ index: Int32, _ value: SQLValue) throws {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .int(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .double(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = bindText(index, v)
        }
        if rc != SQLITE_OK { throw connection.error(rc, "bind") }
    }

    private func bindText(_ index: Int32, _ text: String) -> Int32 {
        var text = text
        return text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress {
                    return oceq_sqlite3_bind_text(handle, index, base, Int32(chars.count))
                }
                return oceq_sqlite3_bind_text(handle, index, "", 0)
            }
        }
    }

    /// Advances; true while a row is available.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc, String(cString: sqlite3_sql(handle)).prefix(300).description)
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        try bind(values)
        _ = try step()
        sqlite3_reset(handle)
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

}
