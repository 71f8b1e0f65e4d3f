// The C libraries `oceq serve` opens at first use (CSystem's loader: a table of functions typed by each
// library's header, or NULL with the loader's reason). `require` turns a missing one into a thrown
// `LibraryUnavailable`; code that runs only after that check reads the tables directly.

import CArchive
import CMicroHTTPD
import CSQLite
import OCEQCore

/// Opening SQLite, libmicrohttpd and libarchive, with the Debian package to name when one is missing.
enum CLibraries {
    /// SQLite's functions (the index opens a connection first, which calls `requireSQLite`).
    static var sqlite: oceq_sqlite3_api { oceq_sqlite3()!.pointee }
    /// libmicrohttpd's functions (a server is started first, which calls `requireHTTP`).
    static var mhd: oceq_mhd_api { oceq_mhd()!.pointee }

    /// SQLite's functions, or `LibraryUnavailable` naming libsqlite3-0.
    static func requireSQLite() throws(LibraryUnavailable) -> oceq_sqlite3_api {
        guard let table = oceq_sqlite3() else {
            throw unavailable("SQLite", "libsqlite3-0", oceq_sqlite3_error())
        }
        return table.pointee
    }

    /// libmicrohttpd's functions, or `LibraryUnavailable` naming libmicrohttpd12.
    static func requireHTTP() throws(LibraryUnavailable) -> oceq_mhd_api {
        guard let table = oceq_mhd() else {
            throw unavailable("libmicrohttpd", "libmicrohttpd12", oceq_mhd_error())
        }
        return table.pointee
    }

    /// libarchive's functions, or `LibraryUnavailable` naming libarchive13.
    static func requireArchive() throws(LibraryUnavailable) -> oceq_archive_api {
        guard let table = oceq_archive() else {
            throw unavailable("libarchive", "libarchive13", oceq_archive_error())
        }
        return table.pointee
    }

    private static func unavailable(
        _ library: String, _ debianPackage: String, _ reason: UnsafePointer<CChar>?
    ) -> LibraryUnavailable {
        LibraryUnavailable(
            library: library, debianPackage: debianPackage, reason: reason.map { String(cString: $0) } ?? "unknown")
    }
}
