import Foundation
import OCEQTestSupport
import Testing

/// Drives the real `oceq` in a pseudo-terminal on the bundled sample channel (./credentials.json of the
/// repository): Tab completes the type, a reference field's name to its id and `@n`; Ctrl-R finds the query
/// again. Prints what the terminal showed; asserting is left to Swift.
private let driver = #"""
    import os, pty, select, sys, time
    binary, root, state = sys.argv[1], sys.argv[2], sys.argv[3]
    """# + "\n" + oceqPseudoTerminalStart + #"""
        def send(data, until, count=1):
            """Types `data` and waits until `until` was shown `count` times, then a little more: libedit sets raw
            mode after it draws the prompt, and a key typed in between would meet the cooked terminal."""
            os.write(fd, data)
            pump(until, count)
            time.sleep(0.3)
        PROMPT = b"OCEGettingStarted> "
        pump(PROMPT)
        time.sleep(0.3)
        send(b"list type=OCEGett\t", b"ingStarted")          # four types share the prefix
        send(b"Ar\t", b"ticle ")                              # one left
        send(b"topic=Espresso\t", b"CORE1")                   # a topic's name becomes its id
        send(b"limit 2\r", b"(2 rows of", 1)
        send(b"get @\t", b"@2 ")                              # the rows of the result, listed with names
        send(b"\x15", PROMPT, 3)                              # Ctrl-U: drop the line
        send(b"\x12type=OCEG", b"bck:")                       # Ctrl-R finds the query again
        send(b"\r", b"(2 rows of", 2)
        os.write(fd, b"\x04")                                 # Ctrl-D on an empty line
        finish(10)
        """#

@Suite("oceq in a pseudo-terminal")
struct OceqPseudoTerminalTests {
    @Test(
        "a query typed with Tab completion (type, reference name, @n) and found again with Ctrl-R",
        .enabled(
            if: executableOnPath("python3") != nil, "python3 is missing: the pseudo-terminal test of oceq is skipped"),
        .timeLimit(.minutes(1)))
    func completionAndSearch() throws {
        let python = try #require(executableOnPath("python3"))
        let oceq = OceqBinary.executable
        try #require(FileManager.default.isExecutableFile(atPath: oceq.path), "oceq is not built at \(oceq.path)")
        let state = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(state) }

        let transcript = try runPython(
            python, driver, arguments: [oceq.path, OceqBinary.repositoryRoot.path, state])

        let query = "list type=OCEGettingStartedArticle topic=CORE141A251016B815034E10D61C414604D1 limit 2"
        let history = try LineEditingFiles.text(of: state + "/oceq/history")
        #expect(history.split(separator: "\n").last.map(String.init) == query, "transcript:\n\(transcript)")
        #expect(transcript.components(separatedBy: "(2 rows of").count == 3, "the query ran twice:\n\(transcript)")
        #expect(transcript.contains("@1 Choosing Milk for Your Flat White"), "Tab listed the rows by name")
        #expect(transcript.hasSuffix("EXIT 0\n"), "oceq ended normally")
    }
}
