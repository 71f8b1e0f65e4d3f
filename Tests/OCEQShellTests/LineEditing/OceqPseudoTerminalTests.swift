import Foundation
import OCEQShell
import OCEQTestSupport
import Testing

/// Drives the real `oceq` in a pseudo-terminal on the bundled sample channel (./credentials.json of the
/// repository): Tab completes the type, a reference field's name to its id and `@n`; Ctrl-R finds the query
/// again. Prints what the terminal showed; asserting is left to Swift.
private let driver = #"""
    import os, pty, select, sys, time
    binary, root, state = sys.argv[1], sys.argv[2], sys.argv[3]
    """# + "\n" + oceqPseudoTerminalStart + #"""
        PROMPT = b"OCEGettingStarted> "
        pump(PROMPT)
        send(b"list type=OCEGett\t", b"ingStarted")          # four types share the prefix
        send(b"Ar\t", b"ticle ")                              # one left
        send(b"topic=Espresso\t", b"CORE1")                   # a topic's name becomes its id
        send(b"limit 2\r", b"(2 rows of", PROMPT)            # the result, then the next prompt
        send(b"get @\t", b"@2 ")                              # the rows of the result, listed with names
        send(b"\x15")                                         # Ctrl-U: drop the line
        send(b"\x12type=OCEG", b"bck:")                       # Ctrl-R finds the query again
        send(b"\r", b"(2 rows of", PROMPT)
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
    func completionAndSearch() async throws {
        let python = try #require(executableOnPath("python3"))
        let oceq = OceqBinary.executable
        try #require(FileManager.default.isExecutableFile(atPath: oceq.path), "oceq is not built at \(oceq.path)")
        let state = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(state) }

        let transcript = try await runPython(
            python, driver, arguments: [oceq.path, OceqBinary.repositoryRoot.path, state])

        let query = "list type=OCEGettingStartedArticle topic=CORE141A251016B815034E10D61C414604D1 limit 2"
        let history = History(path: state + "/oceq/history")
        try history.load()
        #expect(history.entries.last == query, "transcript:\n\(transcript)")
        #expect(transcript.components(separatedBy: "(2 rows of").count == 3, "the query ran twice:\n\(transcript)")
        #expect(transcript.contains("@1 Choosing Milk for Your Flat White"), "Tab listed the rows by name")
        #expect(transcript.hasSuffix("EXIT 0\n"), "oceq ended normally")
    }
}
