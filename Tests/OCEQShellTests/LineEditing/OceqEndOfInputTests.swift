import Foundation
import OCEQTestSupport
import Testing

/// Starts the real `oceq` in a pseudo-terminal on the sample channel and presses Ctrl-D: in mode `ahead`, while
/// a script it sources is still running (the terminal is between lines, in canonical mode); in mode `prompt`,
/// the moment the prompt shows. Prints the transcript and the exit status.
private let driver = #"""
    import os, pty, select, sys, time
    binary, root, state, mode = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    """# + "\n" + oceqPseudoTerminalStart + #"""
        pump(b"OCEGettingStarted> ")
        if mode == "ahead":
            os.write(fd, b"source " + state.encode() + b"/slow.oceq\r")
            pump(b"started")
        os.write(fd, b"\x04")
        finish(30)
        """#

@Suite("oceq in a pseudo-terminal: Ctrl-D")
struct OceqEndOfInputTests {
    /// The transcript of one drive in `mode`.
    private func drive(_ mode: String) async throws -> String {
        let python = try #require(executableOnPath("python3"))
        let oceq = OceqBinary.executable
        try #require(FileManager.default.isExecutableFile(atPath: oceq.path), "oceq is not built at \(oceq.path)")
        let state = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(state) }
        // Long enough that the Ctrl-D arrives while it runs.
        let script = "echo started\n" + String(repeating: "count type=Image\n", count: 400) + "echo finished\n"
        try Data(script.utf8).write(to: URL(fileURLWithPath: state + "/slow.oceq"))
        return try await runPython(python, driver, arguments: [oceq.path, OceqBinary.repositoryRoot.path, state, mode])
    }

    @Test(
        "Ctrl-D typed while a statement runs ends the REPL once it is done (it used to be read as a NUL byte)",
        .enabled(if: executableOnPath("python3") != nil, "python3 is missing: the pseudo-terminal test is skipped"),
        .timeLimit(.minutes(1)))
    func typedAhead() async throws {
        let transcript = try await drive("ahead")
        #expect(transcript.contains("finished"), "the script ran to its end:\n\(transcript)")
        #expect(transcript.hasSuffix("EXIT 0\n"), "oceq left on the Ctrl-D typed ahead:\n\(transcript)")
    }

    @Test(
        "Ctrl-D typed the moment the prompt shows ends the REPL (the terminal is in raw mode before the prompt)",
        .enabled(if: executableOnPath("python3") != nil, "python3 is missing: the pseudo-terminal test is skipped"),
        .timeLimit(.minutes(1)))
    func atPrompt() async throws {
        let transcript = try await drive("prompt")
        #expect(transcript.hasSuffix("EXIT 0\n"), "\(transcript)")
    }
}
