import CSystem
import OCEQCore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// CSystem's loader of the libraries opened at first use: a missing library or function is a message
/// for a thrown error, never an exit.
@Suite("Libraries opened at first use")
struct LibraryLoaderTests {
    /// Runs the loader on `soname` for the functions `names`; the status and the message.
    private func open(_ soname: String, _ names: [String]) -> (status: Int32, message: String) {
        var slots = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
        var message = [CChar](repeating: 0, count: 512)
        let copies = names.map { strdup($0)! }
        defer { copies.forEach { free($0) } }
        let status = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer { list in
            oceq_library_open(soname, RTLD_NOW | RTLD_LOCAL, list.baseAddress!, &slots, names.count, &message, 512)
        }
        return (status, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test("a library that is not installed gives the loader's reason")
    func missingLibrary() {
        let (status, message) = open("liboceq-not-installed.so.7", ["sqlite3_step"])
        #expect(status == -1)
        #expect(message.contains("liboceq-not-installed.so.7"))
    }

    @Test("a function the library lacks is named")
    func missingFunction() {
        let (status, message) = open("libsqlite3.so.0", ["sqlite3_step", "sqlite3_no_such_function"])
        #expect(status == -1)
        #expect(message == "libsqlite3.so.0 has no sqlite3_no_such_function")
    }

    @Test("every function found fills the table")
    func found() {
        #expect(open("libsqlite3.so.0", ["sqlite3_step", "sqlite3_open_v2"]).status == 0)
    }

    @Test("the shell's line names the Debian package")
    func message() {
        let error = LibraryUnavailable(library: "SQLite", debianPackage: "libsqlite3-0", reason: "no file")
        #expect(error.description == "SQLite cannot be used (no file); install it with: apt-get install libsqlite3-0")
        #expect(LibraryUnavailable.exitCode == 127)
    }
}
