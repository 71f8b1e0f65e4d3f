import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("Fault injection")
struct FaultInjectionTests {
    @Test("specs parse with rates, percentages and keys")
    func parse() throws {
        let spec = try FaultSpec.parse(
            "503@0.1,429@5%:retry-after=2,reset:after=100:path=/assets,delay@1:ms=20,stall:bps=10")
        #expect(spec.rules.count == 5)
        #expect(spec.rules[0].kind == .status(503) && spec.rules[0].rate == 0.1)
        #expect(spec.rules[1].kind == .tooManyRequests && spec.rules[1].rate == 0.05 && spec.rules[1].retryAfter == 2)
        #expect(spec.rules[2].afterBytes == 100 && spec.rules[2].pathPrefix == "/assets")
        #expect(spec.rules[4].bytesPerSecond == 10)
    }

    @Test(
        "a malformed spec names the offending part",
        arguments: [
            (
                "402",
                "invalid fault spec at '402': unknown fault '402' (500, 502, 503, 504, 401, 403, 404, 429, reset, truncate, delay, stall, malformed)"
            ),
            ("503@2", "invalid fault spec at '503@2': rate '2' must be between 0 and 1 (or 0% and 100%)"),
            ("reset:after=x", "invalid fault spec at 'after=x': 'after' needs a non-negative integer"),
            (
                "delay:speed=3",
                "invalid fault spec at 'speed=3': unknown key 'speed' (path, retry-after, limit, after, keep, ms, bps)"
            ),
            ("503,,429", "invalid fault spec at '': empty rule"),
            ("503:path=items", "invalid fault spec at 'path=items': path must start with '/'"),
        ])
    func malformed(spec: String, message: String) {
        #expect(throws: FaultSpecError.self) { try FaultSpec.parse(spec) }
        do {
            _ = try FaultSpec.parse(spec)
        } catch {
            #expect(error.description == message)
        }
    }

    static func serve(_ spec: String, seed: UInt64 = 7, _ body: (Int) async throws -> Void) async throws {
        let payload = Array((0..<4096).map { UInt8($0 % 251) })
        let injector = FaultInjector(spec: try FaultSpec.parse(spec), seed: seed, log: { _ in })
        let handler = injector.wrap { _ in HTTPResponse(status: 200, body: .bytes(payload)) }
        let server = try HTTPServer(port: 0, threads: 2, handler: handler)
        defer { server.stop() }
        try await body(server.port)
    }

    static let target = "/content/published/api/v1.1/items"

    @Test("each kind is observed by a raw client")
    func kinds() async throws {
        try await Self.serve("503") { port in
            let response = try await RawHTTPClient.send(port: port, target: Self.target)
            #expect(response.status == 503)
            #expect(try JSON.parse(response.body)["status"] == 503)
        }
        try await Self.serve("429:retry-after=3") { port in
            let response = try await RawHTTPClient.send(port: port, target: Self.target)
            #expect(response.status == 429 && response.header("Retry-After") == "3")
        }
        try await Self.serve("truncate:keep=100") { port in
            let response = try await RawHTTPClient.send(port: port, target: Self.target)
            #expect(response.status == 200 && response.header("Content-Length") == "4096")
            #expect(response.body.count == 100 && response.truncated)
        }
        try await Self.serve("reset:after=10") { port in
            let response = try await RawHTTPClient.send(port: port, target: Self.target)
            #expect(response.body.count <= 10 && response.truncated)
        }
        try await Self.serve("delay:ms=300") { port in
            let started = Date()
            let response = try await RawHTTPClient.send(port: port, target: Self.target)
            #expect(response.status == 200 && response.body.count == 4096)
            #expect(Date().timeIntervalSince(started) >= 0.3)
        }
        try await Self.serve("stall:bps=20000") { port in
            let started = Date()
            let response = try await RawHTTPClient.send(port: port, target: Self.target)
            #expect(response.body.count == 4096 && !response.truncated)
            #expect(Date().timeIntervalSince(started) >= 0.2)
        }
    }

    @Test("429 above a request-rate limit: the first requests of a second pass, the rest are refused")
    func rateLimit() async throws {
        try await Self.serve("429:limit=2:retry-after=1") { port in
            // Back to back on one thread: awaiting each (a thread hop, a starved pool) could spread
            // them past the limit's one-second window.
            let statuses = try await OffPool.run {
                try (0..<5).map { _ in try RawHTTPClient.sendSynchronously(port: port, target: Self.target).status }
            }
            #expect(statuses.first == 200)
            #expect(statuses.contains(429))
        }
    }

    @Test("path filters apply, and draws are the same for the same seed")
    func filtersAndDeterminism() async throws {
        try await Self.serve("503:path=/assets") { port in
            let items = try await RawHTTPClient.send(port: port, target: Self.target)
            let asset = try await RawHTTPClient.send(port: port, target: "/content/published/api/v1.1/assets/X/native")
            #expect(items.status == 200)
            #expect(asset.status == 503)
        }
        func statuses(seed: UInt64) async throws -> [Int] {
            var seen: [Int] = []
            try await Self.serve("503@0.5", seed: seed) { port in
                for i in 0..<40 {
                    seen.append(try await RawHTTPClient.send(port: port, target: Self.target + "?n=\(i % 8)").status)
                }
            }
            return seen
        }
        let first = try await statuses(seed: 42)
        await #expect(try statuses(seed: 42) == first)
        #expect(first.contains(503) && first.contains(200))
        await #expect(try statuses(seed: 43) != first)
    }
}
