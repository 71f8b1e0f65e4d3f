import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of a fixture in `Tests/DeliveryKitTests/Fixtures`.
func fixtureBytes(_ name: String) throws -> [UInt8] {
    let folder = String(
        #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/"))
    let path = folder + "/Fixtures/" + name
    guard let bytes = readFile(path) else { throw TestFailure("cannot read fixture \(path)") }
    return bytes
}

/// A fixture parsed as JSON.
func fixture(_ name: String) throws -> JSON { try JSON.parse(try fixtureBytes(name)) }

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A whole file, or nil when missing.
func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        out.append(contentsOf: buffer[0..<count])
    }
    return out
}

/// Writes a whole file.
func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0, "cannot write \(path)")
    bytes.withUnsafeBytes { _ = write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// A fresh empty folder under the process's temporary folder (removed when the process exits).
func temporaryFolder() -> String {
    var template = Array((TestTemporary.perProcess + "/t-XXXXXX").utf8CString)
    let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    return path
}

/// Deterministic bytes for download tests.
func sampleBytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } }

/// A clock that never waits: sleeps advance its time and are recorded.
final class FakeClock: RetryClock {
    private let state = Locked<(now: Double, sleeps: [Double])>((0, []))
    let wallOrigin: Date

    init(wallOrigin: Date = Date(timeIntervalSince1970: 1_700_000_000)) { self.wallOrigin = wallOrigin }

    var sleeps: [Double] { state.withLock { $0.sleeps } }

    func now() -> Double { state.withLock { $0.now } }

    func wallClock() -> Date { wallOrigin.addingTimeInterval(now()) }

    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.now += seconds
            $0.sleeps.append(seconds)
        }
    }
}

/// Collects values from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// A client on `transport` at http://localhost:2112 with channel token 123 and no waiting.
func makeClient(
    _ transport: any Transport, token: String? = "123", bearer: String? = nil, retry: RetryPolicy = .none,
    clock: FakeClock = FakeClock(), log: (@Sendable (RequestLogEntry) -> Void)? = nil,
    server: String = "http://localhost:2112"
) throws -> DeliveryClient {
    var configuration = try DeliveryConfiguration(url: server, channelToken: token, bearerToken: bearer)
    configuration.retry = retry
    configuration.requestLog = log
    return DeliveryClient(configuration: configuration, transport: transport, clock: clock)
}

/// The path and query of a URL (everything after the authority).
func pathAndQuery(_ url: String) -> String {
    guard let scheme = url.firstRange(of: "://") else { return url }
    let rest = url[scheme.upperBound...]
    guard let slash = rest.firstIndex(of: "/") else { return "/" }
    return String(rest[slash...])
}
