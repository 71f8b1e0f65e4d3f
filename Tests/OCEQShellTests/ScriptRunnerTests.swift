import Foundation
import OCEQTestSupport
import Testing

@testable import OCEQShell

@MainActor
@Suite("Script runner against the sample channel", .serialized)
struct ScriptRunnerTests {
    @Test("the sample channel is served in-process")
    func connected() async throws {
        let connection = try #require(sampleConnection)
        let total = try await connection.probe()
        #expect((total ?? 0) > 0)
    }

    @Test("a syntax error anywhere runs nothing and exits 2")
    func syntaxError() async {
        let result = await runScript("echo before\ncount\nlist type==X\n")
        #expect(result.code == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("test.oceq:3:10: error:"))
    }

    @Test("list, @n, get, count, let and echo")
    func flow() async {
        let result = await runScript(
            """
            list type=OCEGettingStartedTopic order name limit 3
            let topic = @1
            let n = count type=OCEGettingStartedArticle topic=$topic
            echo topic $topic has $n articles
            get @1
            """)
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        #expect(result.output.contains("(3 rows"))
        #expect(result.output.contains(" has "))
        #expect(result.output.contains("\nslug "))
    }

    @Test("the first failing statement stops the script with 1 and names the problem")
    func stopsAtFailure() async {
        let result = await runScript("list type=OCEGettingStartedTopic limit 2\nget @7\necho after\n")
        #expect(result.code == 1)
        #expect(!result.output.contains("after"))
        #expect(result.errors.contains("test.oceq:2:5: error:"))
        #expect(result.errors.contains("2 rows"))
    }

    @Test("--keep-going and set errexit off run on, and still exit 1")
    func keepGoing() async {
        let script = "get @1\necho after\n"
        let kept = await runScript(script, keepGoing: true)
        #expect(kept.code == 1)
        #expect(kept.output == "after\n")
        let errexit = await runScript("set errexit off\n" + script)
        #expect(errexit.code == 1)
        #expect(errexit.output == "after\n")
    }

    @Test("quit stops a script with success")
    func quit() async {
        let result = await runScript("echo one\nquit\necho two\n")
        #expect(result.code == ScriptRunner.ExitCode.quit)
        #expect(result.output == "one\n")
    }

    @Test("script arguments are $1..$9; one used but not given stops the script with 2 before anything runs")
    func arguments() async {
        let result = await runScript("echo $1 and $2", arguments: ["a", "b"])
        #expect(result.output == "a and b\n")
        let missing = await runScript("echo start\ncount type=$1\necho $3\n", arguments: ["Image"])
        #expect(missing.code == 2)
        #expect(missing.output.isEmpty, "nothing ran: \(missing.output)")
        #expect(missing.errors.hasPrefix("test.oceq:3:6: error: '$3' was not given; there is 1 argument\n"))
        let keepGoing = await runScript("echo start\necho $2\n", arguments: ["a"], keepGoing: true)
        #expect(keepGoing.code == 2 && keepGoing.output.isEmpty, "a usage error, as a syntax error is")
    }

    @Test("source runs a file in the same session, at most 16 deep")
    func source() async throws {
        let directory = TestTemporary.path("oceq-source")
        defer { TestTemporary.remove(directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "let greeting = hello\n".write(toFile: directory + "/lib.oceq", atomically: false, encoding: .utf8)
        try "source self.oceq\n".write(toFile: directory + "/self.oceq", atomically: false, encoding: .utf8)
        let (session, output, errors) = makeSession()
        let code = await ScriptRunner.run(
            text: "source \(directory)/lib.oceq\necho $greeting\n", fileName: "main.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        #expect(output.text == "hello\n")
        let loop = await runScript("source \(directory)/self.oceq")
        #expect(loop.code == 1)
        #expect(loop.errors.contains("nests deeper than 16"))
        #expect(loop.errors.components(separatedBy: "error:").count == 2)
    }

    @Test("set changes format and limit; bad values are caught with a caret")
    func settings() async {
        let result = await runScript("set format json\nset limit 2\nlist type=OCEGettingStartedTopic order name")
        #expect(result.code == 0)
        #expect(result.output.hasPrefix("[{"))
        let bad = await runScript("set format jsn")
        #expect(bad.code == 1)
        #expect(bad.errors.contains("unknown format 'jsn'; did you mean 'json'?"))
        #expect(bad.errors.contains("1 | set format jsn\n  |            ^~~"))
        let setting = await runScript("set colour off")
        #expect(
            setting.errors.contains(
                "unknown setting 'colour'; did you mean 'color'? (settings: format, limit, errexit, timing, pager, color,"
            ))
        let far = await runScript("set format xml")
        #expect(far.errors.contains("unknown format 'xml'; formats: table, expanded, json, ndjson, csv\n"))
    }

    @Test("timing prints requests, bytes and milliseconds to stderr")
    func timing() async throws {
        // A connection of its own: another test's statement on the shared one would take its request log.
        let connection = try #require(openSampleConnection())
        let result = await runScript("set timing on\ncount", connection: connection)
        #expect(result.errors.hasPrefix("timing: 1 request, "))
    }

    @Test("connect switches channels, keeps the old one when the new one fails, and hides its token")
    func connect() async {
        let sample = repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path
        let result = await runScript(
            """
            connect http://127.0.0.1:9 not-a-token
            count type=OCEGettingStartedTopic
            connect \(sample) 935a30048d49b8479c9bc1577e392eba
            echo 935a30048d49b8479c9bc1577e392eba
            """, connection: offlineConnection, keepGoing: true)
        #expect(result.code == 1)
        #expect(result.errors.contains("test.oceq:1:1: error: cannot reach the channel"))
        #expect(result.errors.contains("test.oceq:2:1: error: "))
        #expect(result.output.hasPrefix("connected to OCEGettingStarted, "))
        // Results are never rewritten: what `echo` is given is printed as it is; messages hide the token.
        #expect(result.output.hasSuffix("935a30048d49b8479c9bc1577e392eba\n"))
        #expect(!result.errors.contains("not-a-token"))
    }

    @Test("without a connection, commands that need one say so")
    func notConnected() async {
        let result = await runScript("count", connection: nil)
        #expect(result.code == 1)
        #expect(result.errors == "test.oceq:1:1: error: not connected to a channel\n")
    }
}
