import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("HTTP server on libmicrohttpd")
struct HTTPServerTests {
    static func withServer(_ handler: @escaping HTTPServer.Handler, _ body: (Int) async throws -> Void) async throws {
        let server = try HTTPServer(port: 0, threads: 2, handler: handler)
        defer { server.stop() }
        #expect(server.port > 0)
        try await body(server.port)
    }

    @Test("passes the raw target, decoded segments and query to the handler")
    func requestParsing() async throws {
        try await Self.withServer({ request in
            let echo: JSON = [
                "method": .string(request.method), "target": .string(request.target),
                "segments": .array(request.pathSegments.map { .string($0) }),
                "q": .string(request.parameter("q") ?? "-"), "token": .string(request.header("channelToken") ?? "-"),
            ]
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: .bytes(JSONWriter().bytes(echo)))
        }) { port in
            let response = try await RawHTTPClient.send(
                port: port, target: "/a/b%20c/%2E%2E/d?q=name+eq+%22x%2By%22&x", headers: ["channelToken": "T1"])
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let json = try JSON.parse(response.body)
            #expect(json["target"] == "/a/b%20c/%2E%2E/d?q=name+eq+%22x%2By%22&x")
            #expect(json["segments"] == ["a", "b c", "..", "d"])
            #expect(json["q"] == "name eq \"x+y\"")
            #expect(json["token"] == "T1")
        }
    }

    @Test("sends a byte range of a file and answers HEAD without a body")
    func fileBodies() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oceq-http-\(UUID().uuidString)").path
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Self.withServer({ _ in HTTPResponse(status: 206, body: .file(path: path, offset: 2, length: 5)) }) {
            port in
            let range = try await RawHTTPClient.send(port: port, target: "/f")
            #expect(range.status == 206)
            #expect(range.text == "23456")
            #expect(range.header("Content-Length") == "5")
            let head = try await RawHTTPClient.send(port: port, method: "HEAD", target: "/f")
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == "5")
        }
    }

    @Test("files read into memory (up to the inline limit) and sent by sendfile (above it) arrive whole and in ranges")
    func inlineAndSentFiles() async throws {
        let limit = HTTPServer.inlineFileLimit
        let folder = try TemporaryFolder("oceq-http-inline")
        defer { folder.remove() }
        var made: [String: [UInt8]] = [:]
        for size in [0, 1, 1000, limit, limit + 1, 3 * limit + 7] {
            made["/\(size)"] = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            try Data(made["/\(size)"]!).write(to: URL(fileURLWithPath: folder.path + "/\(size)"))
        }
        let files = made
        try await Self.withServer({ request in
            let path = folder.path + "/" + (request.pathSegments.first ?? "")
            let size = files["/" + (request.pathSegments.first ?? "")]?.count ?? 0
            if let from = request.parameter("from").flatMap({ Int($0) }) {
                return HTTPResponse(status: 206, body: .file(path: path, offset: from, length: size - from - 1))
            }
            // A length past the file's end: the body is cut short, never padded or made up.
            if request.parameter("longer") != nil {
                return HTTPResponse(status: 200, body: .file(path: path, offset: 0, length: size + 10))
            }
            return HTTPResponse(status: 200, body: .file(path: path, offset: 0, length: size))
        }) { port in
            for (target, bytes) in files.sorted(by: { $0.value.count < $1.value.count }) {
                let whole = try await RawHTTPClient.send(port: port, target: target)
                #expect(whole.status == 200)
                #expect(whole.body == bytes, "\(target)")
                #expect(whole.header("Content-Length") == String(bytes.count))
                guard bytes.count > 3 else { continue }
                let part = try await RawHTTPClient.send(port: port, target: target + "?from=2")
                #expect(part.status == 206)
                #expect(part.body == Array(bytes[2..<(bytes.count - 1)]), "\(target) from 2")
                let head = try await RawHTTPClient.send(port: port, method: "HEAD", target: target)
                #expect(head.body.isEmpty && head.header("Content-Length") == String(bytes.count))
            }
            // A file read into memory that proves shorter than announced is cut at once, never padded
            // with whatever the buffer held (sendfile's path waits for the client to give up: not tried).
            for target in ["/0", "/1000"] {
                let longer = try await RawHTTPClient.send(port: port, target: target + "?longer", timeout: 5)
                #expect(longer.truncated, "\(target) announced 10 bytes more than it has")
                #expect(longer.body == files[target]!, "\(target)")
            }
        }
    }

    @Test("a stream that stops early is seen as truncated, a failing one as a cut connection")
    func streams() async throws {
        try await Self.withServer({ request in
            let abort = request.pathSegments.first == "reset"
            return HTTPResponse(
                status: 200,
                body: .stream(
                    HTTPBodyStream(declaredLength: 100) { offset in
                        if offset >= 40 { return abort ? nil : [] }
                        return Array(repeating: UInt8(ascii: "x"), count: 20)
                    }))
        }) { port in
            let cut = try await RawHTTPClient.send(port: port, target: "/truncate")
            #expect(cut.status == 200)
            #expect(cut.body.count == 40)
            #expect(cut.truncated)
            let reset = try await RawHTTPClient.send(port: port, target: "/reset")
            #expect(reset.body.count <= 40)
            #expect(reset.truncated)
        }
    }

    @Test("an oversized request target gets 414, oversized headers a 4xx, and the server lives on")
    func oversized() async throws {
        try await Self.withServer({ _ in HTTPResponse(status: 200, body: .bytes(Array("ok".utf8))) }) { port in
            let long = try await RawHTTPClient.send(
                port: port, target: "/items?q=" + String(repeating: "a", count: 20_000))
            #expect(long.status == 414)
            let huge = try await RawHTTPClient.send(
                port: port, target: "/x", headers: ["X-Big": String(repeating: "b", count: 200_000)])
            #expect((400..<500).contains(huge.status))
            let fine = try await RawHTTPClient.send(port: port, target: "/x")
            #expect(fine.status == 200 && fine.text == "ok")
        }
    }

    @Test("keeps the connection for the next request; a request with a body is answered and its connection closed")
    func keepAlive() async throws {
        try await Self.withServer({ request in
            HTTPResponse(status: 200, body: .bytes(Array("[\(request.method) \(request.target)]".utf8)))
        }) { port in
            func exchange(_ first: String) async throws -> String {
                let second = "GET /second HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                let raw = try await RawHTTPClient.exchange(port: port, bytes: Array((first + second).utf8), timeout: 10)
                return String(decoding: raw.bytes, as: UTF8.self)
            }
            // Two requests on one connection: both answered, in order (an early answer used to close it).
            let kept = try await exchange("GET /first HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(kept.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(kept.contains("[GET /first]HTTP/1.1 200 OK"))
            #expect(kept.hasSuffix("[GET /second]"))
            // An upload is not read: the answer comes at once and the connection ends after it.
            let upload = try await exchange("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
            #expect(upload.components(separatedBy: "HTTP/1.1 200 OK").count == 2)
            #expect(upload.hasSuffix("[POST /up]"))
        }
    }
}
