import Foundation
import OCEQTestSupport
import Testing

@Suite("The oceq binary runs the blog commands")
struct BlogEndToEndTests {
    /// `$OCEQ_BINARY`, else `oceq` beside the test bundle, else `.build/debug/oceq`.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["OCEQ_BINARY"] { return URL(fileURLWithPath: path) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("oceq")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return repositoryRoot.appendingPathComponent(".build/debug/oceq")
    }

    /// Runs oceq in the repository's root; exit code, stdout and stderr.
    static func run(_ arguments: [String]) async throws -> (code: Int32, stdout: String, stderr: String) {
        var environment = ProcessInfo.processInfo.environment
        for key in ["OCEQ_URL", "OCEQ_CHANNEL_TOKEN", "OCEQ_BEARER", "COLUMNS"] { environment.removeValue(forKey: key) }
        let finished = try await ChildProcess(
            executable.path, arguments, environment: environment, directory: repositoryRoot.path, stdin: .null,
            stdout: .pipe, stderr: .pipe
        ).finish()
        return (finished.code, finished.stdoutText, finished.stderrText)
    }

    @Test("oceq -c home -c 'articles @2' -c 'read @1' in the repository opens the sample and chains")
    func chain() async throws {
        let result = try await BlogEndToEndTests.run(["-c", "home", "-c", "articles @2", "-c", "read @1", "-c", "help"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("Café Supremo\n"))
        #expect(result.stdout.contains("Espresso & Milk: 10 articles, newest first\n"))
        #expect(result.stdout.contains("Réussir son cappuccino à la maison\nby Priya Natarajan · Nov 29, 2025\n\n"))
        #expect(result.stdout.contains("blog commands:\n"))
    }

    @Test("on the 2021 blog template (another content model) home says so in one line and fails")
    func notBlog() async throws {
        let zip = "Tests/ChannelServerTests/Fixtures/exports/BlogTemplate-2021-export.zip"
        let result = try await BlogEndToEndTests.run(["--url", zip, "-c", "home"])
        #expect(result.code == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: this channel has no blog: no OCEGettingStartedHomePage item named HomePage (the blog "
                + "commands need the content model of Oracle's blog sample)\n")
    }
}
