import Foundation
import OCEQShell
import Testing

/// `oceq-editline-demo`, built beside the test bundle (the test target depends on it).
private func demoBinary() -> String? {
    guard let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
    var directory = URL(fileURLWithPath: test).deletingLastPathComponent()
    // On Linux the test runner is `.build/<config>/<Package>PackageTests.xctest`, a file beside the products.
    for _ in 0..<3 {
        let candidate = directory.appendingPathComponent("oceq-editline-demo").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        directory.deleteLastPathComponent()
    }
    return nil
}

/// Drives the demo in a pseudo-terminal: waits for each expected echo before typing on, with a timeout, and
/// prints what the terminal showed. Asserting is left to Swift.
private let driver = #"""
    import fcntl, os, pty, select, struct, sys, termios, time
    binary, state = sys.argv[1], sys.argv[2]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm"
        os.environ["XDG_STATE_HOME"] = state
        os.environ["HOME"] = state          # no ~/.editrc of the user's, nothing written to the real home
        os.environ.pop("EDITRC", None)
        os.environ["LANG"] = "C.UTF-8"
        os.environ.pop("LC_ALL", None)
        os.execv(binary, [binary])
    """# + "\n" + pseudoTerminalHelpers + #"""
        PROMPT = b"\x1b[1;32moceq\x1b[0m> "
        def line(data, echoed):
            """Types a line and waits for the demo's echo and the next prompt (shown once raw mode is on)."""
            send(data, echoed, b"\r\n" + PROMPT)
        pump(PROMPT)
        line(b"abc\r", b"got: abc")
        send(b"\x12ab", b"bck:")                          # Ctrl-R, then the start of the earlier line
        line(b"\r", b"got: abc")
        send(b"\x12Seed", b"bck:")                        # an entry loaded from the history file
        line(b"\r", b"got: count type=Seeded")
        send(b"half", b"half")
        line(b"\x03", b"interrupted")                     # Ctrl-C drops the half-typed line
        line("h\u00e9llo \u2603\r".encode(), "got: h\u00e9llo \u2603".encode())
        def resize(rows, columns):                          # the kernel sends SIGWINCH
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            time.sleep(0.3)                                 # nothing shows that the signal was handled
        send(b"wide", b"wide")
        resize(30, 100)
        resize(24, 60)                                      # twice in one line: libedit's handler is one-shot
        line(b"r\r", b"got: wider")
        send(b"sel\t", b"ect")                             # Tab: one candidate
        line(b"\r", b"got: select ")
        send(b"se\t", b"search")                           # Tab: several, listed
        line(b"\x15connect https://h token123\r", b"got: connect https://h token123")
        line(b"\x0f world\r", b"got: hello world")         # ^O is bound in the test's ~/.editrc
        os.write(fd, b"\x04")                               # Ctrl-D on an empty line
        pump(b"end\r\n")
        finish(5)
        """#

@Suite("EditLineReader in a pseudo-terminal")
struct PseudoTerminalTests {
    @Test(
        "typing, Ctrl-R, Ctrl-C, UTF-8, resizing, Tab, ~/.editrc and Ctrl-D through a pty",
        .enabled(if: executableOnPath("python3") != nil, "python3 is missing: the pseudo-terminal test is skipped"),
        .timeLimit(.minutes(1)))
    func session() async throws {
        let python = try #require(executableOnPath("python3"))
        let demo = try #require(demoBinary(), "oceq-editline-demo is not built beside the tests")
        let state = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(state) }
        try FileManager.default.createDirectory(atPath: state + "/oceq", withIntermediateDirectories: true)
        try "oceq:bind -s ^O hello\n".write(toFile: state + "/.editrc", atomically: false, encoding: .utf8)
        try "_oceq_history_v1_\ncount type=Seeded\n".write(
            toFile: state + "/oceq/history", atomically: false, encoding: .utf8)

        let transcript = try await runPython(python, driver, arguments: [demo, state])

        // "\r\n" is one Character in Swift: split the scalars.
        let lines = transcript.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        let echoed = lines.filter { $0.hasPrefix("got: ") || $0 == "interrupted" || $0 == "end" }
        #expect(
            echoed == [
                "got: abc", "got: abc", "got: count type=Seeded", "interrupted", "got: héllo ☃", "got: wider",
                "got: select ",
                "got: connect https://h token123", "got: hello world", "end",
            ], "transcript:\n\(transcript)")
        #expect(lines.contains("select  search"), "the ambiguous Tab lists the choices")
        #expect(!transcript.contains("got: half"))
        #expect(
            lines.contains("outer Ctrl-C subscriber called 0 time(s)"),
            "while a line is read, the reader's Ctrl-C subscriber alone hears it")
        #expect(lines.last == "EXIT 0", "the demo ends normally, not by SIGINT")

        let history = History(path: state + "/oceq/history")
        try history.load()
        #expect(
            history.entries == [
                "count type=Seeded", "abc", "count type=Seeded", "héllo ☃", "wider", "select", "hello world",
            ])
        #expect(try !LineEditingFiles.text(of: state + "/oceq/history").contains("token123"))
        #expect(try LineEditingFiles.mode(of: state + "/oceq/history") == 0o600)
    }
}
