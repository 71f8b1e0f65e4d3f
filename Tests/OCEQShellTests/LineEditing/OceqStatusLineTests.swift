import Foundation
import OCEQShell
import OCEQTestSupport
import Testing

/// Drives the real `oceq` in a pseudo-terminal against `oceq serve` of the sample that delays every answer
/// (so that the statement spinner shows while the selection is read, and stays under the download): a
/// download of three thumbnails, one at a time. Prints what the terminal showed; asserting is left to Swift.
private let driver = #"""
    import os, pty, select, sys, time
    binary, root, state, origin, folder = sys.argv[1:6]
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(root)
        for key in ["EDITRC", "LC_ALL", "PAGER", "COLUMNS"]:
            os.environ.pop(key, None)
        os.environ.update(TERM="xterm", HOME=state, XDG_STATE_HOME=state, XDG_CONFIG_HOME=state, LANG="C.UTF-8",
                          OCEQ_URL=origin, OCEQ_CHANNEL_TOKEN="935a30048d49b8479c9bc1577e392eba")
        os.execv(binary, [binary])
    """# + "\n" + pseudoTerminalHelpers + #"""
        PROMPT = b"127.0.0.1> "
        pump(PROMPT)
        statement = "download (list type=Image order name limit 3) thumbnail to %s --concurrency 1\r" % folder
        send(statement.encode(), b"3 files", PROMPT, timeout=120)
        os.write(fd, b"\x04")
        finish(20)
        """#

@Suite("The status line in a pseudo-terminal")
struct OceqStatusLineTests {
    @Test(
        "a download's progress line is never written over by the statement spinner, nor merged with it",
        .enabled(
            if: executableOnPath("python3") != nil, "python3 is missing: the pseudo-terminal test of oceq is skipped"),
        .timeLimit(.minutes(3)))
    func progressOwnsTheLine() async throws {
        let python = try #require(executableOnPath("python3"))
        let oceq = OceqBinary.executable
        try #require(FileManager.default.isExecutableFile(atPath: oceq.path), "oceq is not built at \(oceq.path)")
        let state = try LineEditingFiles.temporaryDirectory()
        defer { LineEditingFiles.remove(state) }
        let folder = state + "/thumbs"
        // Every answer waits a second before its first byte: longer than the spinner's 300 ms.
        let server = try await ServeProcess(
            export: OceqBinary.repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path,
            arguments: ["--faults", "delay:ms=1000"])
        defer { server.stop() }

        let transcript = try await runPython(
            python, driver, arguments: [oceq.path, OceqBinary.repositoryRoot.path, state, server.origin, folder])

        #expect(transcript.hasSuffix("EXIT 0\n"), "oceq ended normally:\n\(transcript)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        #expect(files.count == 3, "\(transcript)")
        // Each status write starts with a carriage return: split there, each piece is one drawing.
        let pieces = transcript.split(separator: "\r", omittingEmptySubsequences: true).map(String.init)
        let spinner = "waiting for the channel"
        #expect(pieces.contains { $0.contains(spinner) }, "the spinner showed while the selection was read")
        let progress = pieces.indices.filter { pieces[$0].contains("download: ") }
        try #require(!progress.isEmpty, "the progress line showed:\n\(transcript)")
        #expect(!pieces.contains { $0.contains(spinner) && $0.contains("download: ") }, "merged:\n\(transcript)")
        let during = pieces[progress.first!...progress.last!]
        #expect(!during.contains { $0.contains(spinner) }, "a spinner frame inside the download:\n\(transcript)")
    }
}
