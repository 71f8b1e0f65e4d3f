import Foundation
import OCEQShell
import OCEQTestSupport
import Testing

/// Drives the real `oceq` in a pseudo-terminal on the bundled sample channel: Tab after `articles`, after
/// `download @1` and after a clause already given; the continuation prompts; a comment typed above `define`
/// as its help; the prompt after `connect` to another server (`origin`). Prints what the terminal showed;
/// asserting is left to Swift.
private let driver = #"""
    import os, pty, select, sys, time
    binary, root, state, origin = sys.argv[1:5]
    """# + "\n" + oceqPseudoTerminalStart + #"""
        PROMPT = b"OCEGettingStarted> "
        pump(PROMPT)
        send(b"articles Esp\t", b'"Espresso & Milk" ')         # a topic's name, quoted
        send(b"\x15")                                           # Ctrl-U: drop the line
        send(b"list type=Image order name limit 2\r", b"(2 rows of", PROMPT)
        send(b"download @1 \t", b"thumbnail")                   # the words after the target
        send(b"rendition \t", b"Medium")                        # the image's renditions
        send(b"\x15\r", PROMPT)
        send(b"list type=OCEGettingStartedArticle order name \t", b"desc")
        send(b"\x15\r", PROMPT)
        send(b'echo "one\r', b'"> ')                            # inside a string
        send(b'two"\r', b"two", PROMPT)
        send(b"# Says hi to the tester.\r", PROMPT)
        send(b"define hi()\r", b"define> ")                     # inside a define
        send(b"count type in (Image,\r", b"(> ")                # inside parentheses
        send(b"OCEGettingStartedTopic)\r", b"define> ")
        send(b"end\r", PROMPT)
        send(b"help hi\r", b"Says hi to the tester.", PROMPT)
        send(("connect %s 935a30048d49b8479c9bc1577e392eba\r" % origin).encode(), b"connected to", b"127.0.0.1> ")
        os.write(fd, b"\x04")                                   # Ctrl-D on an empty line
        finish(10)
        """#

@Suite("oceq's prompts and completion in a pseudo-terminal")
struct OceqPromptPseudoTerminalTests {
    @Test(
        "Tab after articles, download @1 and a given clause; continuation prompts; define help; prompt after connect",
        .enabled(
            if: executableOnPath("python3") != nil, "python3 is missing: the pseudo-terminal test of oceq is skipped"),
        .timeLimit(.minutes(2)))
    func promptsAndCompletion() async throws {
        let python = try #require(executableOnPath("python3"))
        let oceq = OceqBinary.executable
        try #require(FileManager.default.isExecutableFile(atPath: oceq.path), "oceq is not built at \(oceq.path)")
        let state = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(state) }
        let server = try await ServeProcess(
            export: OceqBinary.repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path)
        defer { server.stop() }

        let transcript = try await runPython(
            python, driver, arguments: [oceq.path, OceqBinary.repositoryRoot.path, state, server.origin])

        let lines = transcript.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(transcript.contains("\"Espresso & Milk\" "), "Tab put in the quoted name:\n\(transcript)")
        let words = try #require(lines.first { $0.contains("native") && $0.contains("rendition") }, "\(transcript)")
        #expect(words.split(separator: " ") == ["native", "rendition", "thumbnail", "to"])
        let renditions = try #require(lines.first { $0.contains("Medium") && !$0.contains(">") }, "\(transcript)")
        #expect(renditions.contains("Thumbnail"))
        let clauses = try #require(lines.first { $0.hasPrefix("asc") }, "\(transcript)")
        #expect(clauses.contains("limit") && !clauses.contains("order"), "order is given already: \(clauses)")
        #expect(lines.contains("                \"> two\""), "\(transcript)")
        #expect(lines.contains("           define> count type in (Image,"), "\(transcript)")
        #expect(lines.contains("                (> OCEGettingStartedTopic)"), "\(transcript)")
        #expect(lines.contains { $0.contains("Says hi to the tester.") && !$0.contains("#") }, "\(transcript)")
        #expect(transcript.contains("127.0.0.1> "), "the prompt names the new channel:\n\(transcript)")
        #expect(transcript.hasSuffix("EXIT 0\n"), "oceq ended normally")
    }
}
