// The secrets audit of issue 10 (part 4): the built binary, with a distinctive channel token and
// bearer, against `oceq serve` run as its own process with its access log on. Every command kind
// runs (listings, items, explain, errors of the server and of syntax, `set timing on`, `connect`
// with the token, a failed connect, a wrong bearer, an interactive session that writes history);
// then everything written (stdout, stderr, the server's log, every file under the temporary
// home, state and config folders) is scanned for the secrets, raw, percent-encoded and in base64.

import Foundation
import OCEQTestSupport
import Testing

@Suite("End to end: the secrets audit of everything the binary and the server write", .serialized)
struct SecretsAuditTests {
    static let token = "tok+AUDIT/5e8b2f"
    static let bearer = "bear-AUDIT-77c1d9"
    static let wrongBearer = "wrong-AUDIT-3b9d04"

    /// Every form a secret could leak in.
    static var forms: [String] {
        var out: [String] = []
        for secret in [token, bearer, wrongBearer] {
            out.append(secret)
            out.append(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            out.append(secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)
            out.append(secret.replacingOccurrences(of: "+", with: "%2B"))
            out.append(Data(secret.utf8).base64EncodedString())
            out.append(Data("Bearer \(secret)".utf8).base64EncodedString())
            // The distinctive tail alone catches a secret cut or re-encoded around it.
            out.append(String(secret.suffix(6)))
        }
        return Array(Set(out))
    }

    /// The forms found in `bytes`.
    static func leaks(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        return forms.filter { text.contains($0) }
    }

    /// Drives the REPL in a pseudo-terminal: argv[1] binary, argv[2] cwd, the rest lines to type.
    static let ptyDriver = """
        import os, pty, select, sys, time
        binary, directory, lines = sys.argv[1], sys.argv[2], sys.argv[3:]
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(directory)
            os.environ["TERM"] = "xterm"
            os.environ["PAGER"] = "cat"
            os.execv(binary, ["oceq", "--color", "never"])
        out = b""
        def read(seconds):
            global out
            end = time.time() + seconds
            while time.time() < end:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if ready:
                    try:
                        chunk = os.read(fd, 65536)
                    except OSError:
                        return
                    if not chunk:
                        return
                    out += chunk
                    if out.endswith(b"> "):
                        return
        read(20)
        for line in lines:
            os.write(fd, line.encode() + b"\\r")
            read(10)
        os.write(fd, b"quit\\r")
        read(5)
        status = None
        end = time.time() + 20
        while status is None and time.time() < end:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
            else:
                read(0.1)
        if status is None:
            os.kill(pid, 9)  # never hang the test run
            status = os.waitpid(pid, 0)[1]
        sys.stdout.buffer.write(out)
        sys.stdout.write("\\nEXIT %d\\n" % os.waitstatus_to_exitcode(status))
        """

    @Test("no secret in any output, log, history, error, explain or file")
    func audit() async throws {
        let root = TestTemporary.path("oceq-audit")
        let cwd = root + "/cwd"
        let config = root + "/config"
        for folder in [cwd, config + "/oceq", root + "/state", root + "/home", root + "/serve"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sample = OceqBinary.repositoryRoot.path + "/Samples/OCEGettingStarted"
        let server = try await ServeProcess(
            export: sample, arguments: ["--token", Self.token, "--bearer", Self.bearer], logFolder: root + "/serve")
        let credentials = try JSONSerialization.data(withJSONObject: [
            "url": server.origin, "channelToken": Self.token, "authorization": "Bearer \(Self.bearer)",
        ])
        try credentials.write(to: URL(fileURLWithPath: config + "/oceq/credentials.json"))
        chmod(config + "/oceq/credentials.json", 0o600)
        let environment: [String: String?] = [
            "HOME": root + "/home", "XDG_STATE_HOME": root + "/state", "XDG_CONFIG_HOME": config, "PAGER": "cat",
        ]
        var outputs: [(String, [UInt8])] = []
        func run(
            _ label: String, _ arguments: [String], input: String = "", env: [String: String?] = [:]
        ) async throws
            -> MeasuredRun
        {
            let result = try await MeasuredRun.run(
                arguments, input: input, environment: environment.merging(env) { $1 }, directory: cwd, timeLimit: 120)
            outputs.append((label + " stdout", result.stdout))
            outputs.append((label + " stderr", result.stderr))
            #expect(!result.timedOut, "\(label) did not finish")
            return result
        }

        // A script of every kind of statement, through the credentials file.
        let script = [
            "list type=OCEGettingStartedTopic", "get @1", "show @1", "fields @1", "home", "read @1",
            "explain list type=Image name ^= \"a\" limit 3", "explain get @1", "set timing on", "list limit 3",
            "get NOSUCHITEM", "connect \(server.origin) \(Self.token)", "count",
            "connect \(server.origin) \(Self.token) extra", "get \"\(Self.token)\"",
            "connect \(server.origin) not-the-token", "count type=Image",
            "download (list type=Image limit 3) to \(root)/downloads",
            "download (list type=Image limit 2) rendition Small to \(root)/downloads",
            "mirror \(root)/mirror (list type=OCEGettingStartedTopic)", "echo done",
        ]
        let scripted = try await run("script", ["--keep-going"], input: script.joined(separator: "\n") + "\n")
        #expect(scripted.code == 1, "\(scripted.stderrText)")
        #expect(scripted.stdoutText.contains("done"), "\(scripted.stdoutText) \(scripted.stderrText)")
        // The explain really shows a URL and a curl line, with the token redacted.
        #expect(scripted.stdoutText.contains("curl"))
        #expect(scripted.stdoutText.contains("REDACTED") || scripted.stdoutText.contains("redacted"))

        // Flags and environment variables; a wrong bearer (401); -c with explain; a syntax error.
        let flags = try await run(
            "flags",
            ["--url", server.origin, "--token", Self.token, "--bearer", Self.wrongBearer, "-c", "list limit 1"])
        #expect(flags.code == 1)
        let fromEnv = try await run(
            "env", ["-c", "explain list limit 2", "-c", "set timing on", "-c", "get @9", "-c", "list limit 2"],
            env: ["OCEQ_URL": server.origin, "OCEQ_CHANNEL_TOKEN": Self.token, "OCEQ_BEARER": Self.bearer])
        #expect(fromEnv.code == 1)
        let syntax = try await run("syntax", ["-c", "list order by"])
        #expect(syntax.code == 2)
        // A syntax error is printed before there is a session; its echoed line holds a secret the
        // command line, the environment or the credentials file names.
        let echoed = await [
            try run(
                "syntax, token flag",
                ["--url", server.origin, "--token", Self.token, "-c", "list type=X where name=\(Self.token) ("]),
            try await run(
                "syntax, bearer variable", ["-c", "echo one\nlist type=\"\(Self.bearer)\" order by"],
                env: ["OCEQ_URL": server.origin, "OCEQ_BEARER": Self.bearer]),
            try await run("syntax, credentials file", ["-c", "list order by \"\(Self.token)\" (("]),
        ]
        for result in echoed {
            #expect(result.code == 2, "\(result.stderrText)")
            #expect(result.stderrText.contains("REDACTED"), "\(result.stderrText)")
            #expect(result.stderrText.contains("^"), "the caret line is still printed: \(result.stderrText)")
        }
        _ = try await run("help", ["-c", "help connect"])

        // An interactive session (a pseudo-terminal), so history is written.
        let driver = root + "/drive_session.py"
        try Self.ptyDriver.write(toFile: driver, atomically: false, encoding: .utf8)
        let typed = [
            "list limit 2", "get @1", "explain list limit 1", "connect \(server.origin) \(Self.token)", "set timing on",
            "count", "get NOSUCHITEM", "list type=",
        ]
        let interactive = try await MeasuredRun.run(
            [driver, OceqBinary.executable.path, cwd] + typed, environment: environment, directory: cwd,
            executable: URL(fileURLWithPath: "/usr/bin/python3"), timeLimit: 180)
        // The terminal echoes what was typed, the token of the connect line among it: only the
        // bearer (never typed) must be absent from the screen.
        let screen = interactive.stdoutText + interactive.stderrText
        for secret in [Self.bearer, Self.wrongBearer] { #expect(!screen.contains(secret)) }
        #expect(
            interactive.stdoutText.contains("EXIT 0"),
            "\(interactive.stdoutText.suffix(800)) \(interactive.stderrText.suffix(800))")
        let history = root + "/state/oceq/history"
        // libedit's history format (strvis) writes a blank as \040.
        let historyText = ((try? String(contentsOfFile: history, encoding: .utf8)) ?? "")
            .replacingOccurrences(of: "\\040", with: " ")
        #expect(historyText.contains("list limit 2"), "history: \(historyText)")
        #expect(historyText.contains("explain list limit 1"))

        server.stop()
        outputs.append(("server log", Array(server.output.utf8)))
        #expect(server.output.contains("channelToken=REDACTED"), "the access log did record requests")

        for (label, bytes) in outputs {
            #expect(
                Self.leaks(bytes).isEmpty,
                "\(label) leaks \(Self.leaks(bytes)): \(String(decoding: bytes, as: UTF8.self).prefix(2000))")
        }
        // Every file written under the temporary folders, but the credentials file that holds them.
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
        #expect(files.contains("state/oceq/history"))
        // The manifest and the mirror were written (and are scanned with the rest).
        #expect(files.contains("downloads/.oceq-manifest.json"), "\(files.sorted().prefix(40))")
        #expect(files.contains("mirror/channel.json"))
        for file in files where file != "config/oceq/credentials.json" && file != "drive_session.py" {
            let path = root + "/" + file
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
            #expect(Self.leaks(bytes).isEmpty, "\(file) leaks \(Self.leaks(bytes))")
        }
    }
}
