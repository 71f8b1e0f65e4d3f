// `--cacert FILE` and `--insecure` on the built binary, against an https server on loopback that presents
// a self-signed certificate for 127.0.0.1 (Fixtures/tls, test only): verification is on by default, a
// CA file makes the server trusted, `--insecure` turns verification off with a warning.

import Foundation
import OCEQTestSupport
import Testing

@Suite("End to end: https with --cacert and --insecure")
struct TLSOptionsTests {
    static let fixtures = OceqBinary.repositoryRoot.path + "/Tests/EndToEndTests/Fixtures/tls"

    /// A Python https server answering every GET with one page saying there are 7 items; its port.
    static let server = """
        import http.server, ssl, sys
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = b'{"hasMore":false,"offset":0,"count":0,"limit":1,"totalResults":7,"items":[],"links":[]}'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *arguments):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    @Test("https is verified unless asked: a self-signed server fails, --cacert trusts it, --insecure warns")
    func verification() async throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            print("skipped: no /usr/bin/python3 to run the https server")
            return
        }
        let process = try ChildProcess(
            python, ["-c", Self.server, Self.fixtures + "/test-server.pem", Self.fixtures + "/test-server.key"],
            stdin: .null, stdout: .pipe, stderr: .pipe, timeLimit: 300)
        defer { process.kill(SIGKILL) }
        let port = try #require(await process.readLine().flatMap { Int($0) }, "the https server did not start")
        let url = "https://127.0.0.1:\(port)"

        let verified = try await OceqBinary.run(["--url", url, "--token", "t0ken-tls-1", "-c", "count"])
        #expect(verified.code == 1)
        #expect(verified.stderr.hasPrefix("oceq: cannot reach the channel: "), "\(verified.stderr)")
        #expect(verified.stderr.lowercased().contains("certificate"), "\(verified.stderr)")
        #expect(!verified.stderr.contains("t0ken-tls-1"))

        let trusted = try await OceqBinary.run([
            "--url", url, "--token", "t0ken-tls-1", "--cacert", Self.fixtures + "/test-server.pem", "-c", "count",
        ])
        #expect(trusted.code == 0, "\(trusted.stderr)")
        #expect(trusted.stdout == "7\n")
        #expect(trusted.stderr.isEmpty)

        let insecure = try await OceqBinary.run(["--url", url, "--token", "t0ken-tls-1", "--insecure", "-c", "count"])
        #expect(insecure.code == 0, "\(insecure.stderr)")
        #expect(insecure.stdout == "7\n")
        #expect(
            insecure.stderr
                == "oceq: warning: --insecure: the server's TLS certificate and host name are not checked\n")

        let missing = try await OceqBinary.run([
            "--url", url, "--token", "t", "--cacert", "/nonexistent.pem", "-c", "count",
        ])
        #expect(missing.code == 1)
        #expect(missing.stderr == "oceq: cannot read the certificate authorities /nonexistent.pem (--cacert)\n")
    }
}
