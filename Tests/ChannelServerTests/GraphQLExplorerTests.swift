import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Issue 19 point 5: `/graphql/explorer` is a self-contained page (no outside scripts) that runs a
/// query against the endpoint and shows its result, and lists the schema; loaded in headless
/// Chromium against the running server (skipped, with the reason printed, without Chromium).
@Suite("The GraphQL explorer page", .serialized)
struct GraphQLExplorerTests {
    /// The Chromium executable, or nil.
    static var chromium: String? {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return nil
    }

    @Test("the page is served at both paths and fetches nothing from elsewhere")
    func page() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        for target in ["/graphql/explorer", TestChannel.prefix + "/graphql/explorer"] {
            let response = try await RawHTTPClient.send(port: channel.port, target: target)
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(response.text.contains("<button id=\"run\""))
            #expect(!response.text.contains("src="), "no outside scripts or images")
            #expect(!response.text.contains("https://"))
        }
    }

    @Test("headless Chromium runs a query from the page and shows its result and the schema")
    func chromiumRunsQuery() async throws {
        guard let chromium = Self.chromium else {
            print("skipped: Chromium is not installed (apt-get install -y chromium)")
            return
        }
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let total = try await #require(channel.json("/items?limit=1&totalResults=true")["totalResults"]?.intValue)
        let folder = try TemporaryFolder("oceq-explorer")
        defer { folder.remove() }
        let query = "{ getItems(limit: 1) { totalResults } }"
        let url =
            "http://127.0.0.1:\(channel.port)/graphql/explorer?run=1&channelToken=\(TestChannel.token)&query="
            + query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        // Chromium's singleton socket path must be short: its own temporary folder is under /tmp.
        let shortTemporary = "/tmp/oqc-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: shortTemporary, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: shortTemporary) }
        let child = try ChildProcess(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(folder.path)/profile", "--virtual-time-budget=10000", "--dump-dom", url,
            ],
            environment: [
                "HOME": folder.path, "TMPDIR": shortTemporary, "PATH": "/usr/bin:/bin",
                "XDG_CONFIG_HOME": folder.path + "/config", "XDG_CACHE_HOME": folder.path + "/cache",
            ], stdin: .null, stdout: .pipe, stderr: .pipe, newProcessGroup: true, timeLimit: 150)
        // SIGTERM to its group (its renderer and GPU processes hold the pipes too), then SIGKILL at 150 s.
        let watchdog = DispatchWorkItem { if child.isRunning { child.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        let finished = await child.finish()
        watchdog.cancel()
        let dom = finished.stdoutText
        let errorText = finished.stderrText
        #expect(dom.contains("data-done=\"1\""), "the page ran the query: \(dom.prefix(400)) \(errorText.suffix(1500))")
        #expect(dom.contains("\"totalResults\": \(total)"), "the result is shown: \(dom.prefix(2000))")
        #expect(dom.contains("<li>oCEGettingStartedArticle (object)</li>"), "the schema is listed")
    }
}
