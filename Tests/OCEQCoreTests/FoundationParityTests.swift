// The helpers that stand in for full Foundation in the targets oceq links (which use FoundationEssentials
// only) give Foundation's answers: each is compared here with the Foundation call it replaced.

import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("OCEQCore's stand-ins for full Foundation")
struct FoundationParityTests {
    // Not "", "//" nor a relative path of one component ("a", ".."): corelibs' NSString traps on those
    // (String._startOfLastPathComponent) or answers "" for "//". `edges` pins their answers instead.
    static let paths = [
        "/", "/a", "/a/", "a/b", "a/b/", "/a/b", "/a/b/c.txt", "a//b", "./a", "../a", "a/./b", "a/../b", "/a/../b",
        "/../a", "/a/b/..", "/a/b/../..", "/tmp/oceq-image-1/image.png", "Samples/OCEGettingStarted",
        "/work/main/../main/./Samples//OCEGettingStarted/",
    ]

    @Test("PathText.parent and lastComponent answer as NSString's path methods", arguments: paths)
    func components(path: String) {
        #expect(PathText.parent(of: path) == (path as NSString).deletingLastPathComponent)
        #expect(PathText.lastComponent(of: path) == (path as NSString).lastPathComponent)
    }

    @Test("the empty path, one relative component and a run of slashes get POSIX dirname's answers")
    func edges() {
        for name in ["a", "a/", ".", "..", "~x"] {
            #expect(PathText.parent(of: name) == ".")
            #expect(PathText.lastComponent(of: name) == (name.hasSuffix("/") ? String(name.dropLast()) : name))
        }
        #expect(PathText.parent(of: "") == ".")
        #expect(PathText.lastComponent(of: "") == "")
        #expect(PathText.parent(of: "//") == "/")
        #expect(PathText.lastComponent(of: "//") == "/")
        #expect(PathText.standardized("") == "")
        #expect(PathText.standardized("a/..") == ".")
    }

    @Test(
        "PathText.joined answers as appendingPathComponent",
        arguments: [("a", "b"), ("a/", "b"), ("/", "b"), ("/a", "b.sqlite"), ("", "b"), ("a", ""), ("/tmp/", "x/y")])
    func joined(folder: String, component: String) {
        #expect(PathText.joined(folder, component) == (folder as NSString).appendingPathComponent(component))
    }

    @Test(
        "PathText.deletingExtension answers as deletingPathExtension on file names",
        arguments: ["a.jpg", "a.tar.gz", ".profile", "a", "a.", "Guide (v2).pdf", "..", "a..b"])
    func deletingExtension(name: String) {
        #expect(PathText.deletingExtension(of: name) == (name as NSString).deletingPathExtension)
    }

    @Test(
        "PathText.standardized answers as standardizingPath where no link is on the way",
        arguments: ["/a/b", "/a//b/", "/a/./b", "/a/b/../c", "/a/b/../../c", "/../a", "/", "a/./b", "a//b/"])
    func standardized(path: String) {
        #expect(PathText.standardized(path) == (path as NSString).standardizingPath)
    }

    @Test(
        "String(cFormat:) is String(format:)",
        arguments: [("%.2f", 3.14159), ("%.1f", 0.05), ("%.1f", 0.25), ("%.2f", 1e21), ("%.1f s", -2.449)])
    func decimals(format: String, value: Double) {
        #expect(String(cFormat: format, value) == String(format: format, value))
    }

    @Test("String(cFormat:) formats integers and long results as String(format:)")
    func integers() {
        for byte in [0, 9, 10, 255] as [UInt8] {
            #expect(String(cFormat: "%02x", byte) == String(format: "%02x", byte))
            #expect(String(cFormat: "%%%02X", byte) == String(format: "%%%02X", byte))
        }
        // Longer than the first buffer: formatted again in one of the length vsnprintf asked for.
        #expect(String(cFormat: "%0300d|%.3f", 7, 2.5) == String(format: "%0300d|%.3f", 7, 2.5))
        #expect(String(cFormat: "%0300d", 7).utf8.count == 300)
    }

    @Test(
        "trimmedSpaces and trimmedWhitespace are trimmingCharacters(in: .whitespaces / .whitespacesAndNewlines)",
        arguments: [
            "", "  a  ", "\ta b\t", " \n a \n ", "\u{A0}x\u{2003}", "\r\nx", "  ", " \u{301}x", "x \u{301}",
            "\u{85}x\u{2028}", "\u{1680}y\u{3000}\u{B}", "\u{200B}z\u{200B}", "\u{FEFF}é ", "\r\n",
        ])
    func trimming(text: String) {
        #expect(text.trimmedSpaces == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmedWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(
        "composed is precomposedStringWithCanonicalMapping",
        arguments: ["", "plain", "Cafe\u{301}", "Caf\u{E9}", "\u{1100}\u{1161}\u{11A8}", "A\u{30A}\u{301}", "\u{212B}"])
    func composed(text: String) {
        #expect(Array(text.composed.unicodeScalars) == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars))
    }
}

@Suite("DetachedThread and FileSystem.readToEnd")
struct DetachedThreadTests {
    @Test("a detached thread runs its closure with the stack and the name asked for")
    func runs() async throws {
        let seen = Locked<(name: String, deepEnough: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        DetachedThread.start(name: "oceq-test-thread-long-name", stackSize: 16 << 20) {
            var comm = [UInt8](repeating: 0, count: 64)
            let fd = open("/proc/thread-self/comm", O_RDONLY)
            let count = read(fd, &comm, 64)
            close(fd)
            let name = String(decoding: comm.prefix(max(0, count)), as: UTF8.self).trimmedWhitespace
            // 8 MiB on the stack: more than a default 8 MiB stack holds with the frames around it.
            let deep = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9 << 20) { buffer in
                buffer.initialize(repeating: 1)
                return buffer[buffer.count - 1] == 1
            }
            seen.withLock { $0 = (name, deep) }
            done.signal()
        }
        let waited = await OffPool.run { done.wait(timeout: .now() + 10) }
        #expect(waited == .success)
        let result = try #require(seen.withLock { $0 })
        #expect(result.name == "oceq-test-threa")  // the first 15 bytes, as Linux keeps them
        #expect(result.deepEnough)
    }

    @Test("readToEnd reads a pipe to its end and leaves the descriptor open")
    func readsPipe() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let payload = Array(repeating: UInt8(ascii: "x"), count: 200_000)
        let writeEnd = fds[1]
        let writer = Thread {
            payload.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    offset += write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
                }
            }
            close(writeEnd)
        }
        writer.start()
        let bytes = try #require(FileSystem.readToEnd(fd: fds[0]))
        #expect(bytes == payload)
        #expect(fcntl(fds[0], F_GETFD) >= 0)  // still open
        close(fds[0])
        #expect(FileSystem.readToEnd(fd: fds[0]) == nil)  // closed now: the read fails
    }
}
