import Foundation
import OCEQTestSupport

/// The first executable `name` on PATH.
func executableOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Python shared by the pseudo-terminal drivers, placed after `pid, fd = pty.fork()`: `pump` reads what the
/// terminal shows into `out` (until `until` was shown `count` times, or until it goes quiet), `send` types
/// and waits for what should follow (never for a fixed time: the prompt shows only once the terminal is in
/// raw mode, see EditLineReader.readLine, so a key typed after it meets the line editor), and `finish`
/// waits for the child to end (killing it after `seconds`), then prints the transcript and the exit status.
let pseudoTerminalHelpers = #"""
    out = b""
    def send(data, until=None, then=None, timeout=30.0):
        """Types `data`; with `until`, reads until it was shown after what was shown before, and then `then`
        (the next prompt, say) after it; a generous timeout, since nothing here waits for a fixed time."""
        global out
        start = len(out)
        os.write(fd, data)
        if until is None:
            return
        end = time.time() + timeout
        while time.time() < end:
            at = out.find(until, start)
            if at >= 0 and (then is None or out.find(then, at + len(until)) >= 0):
                return
            if read_some() is False:
                return
    def read_some():
        """Adds what the terminal shows within 50 ms to `out`: True if it read, None if nothing came,
        False when the terminal has closed."""
        global out
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r:
            return None
        try:
            data = os.read(fd, 4096)
        except OSError:
            return False
        if not data:
            return False
        out += data
        return True
    def pump(until=None, count=1, timeout=30.0):
        end = time.time() + timeout
        while time.time() < end:
            if until is not None and out.count(until) >= count:
                return
            got = read_some()
            if got is False or (got is None and until is None):
                return
    def finish(seconds):
        deadline = time.time() + seconds
        status = None
        while status is None:
            pump(timeout=0.2)
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
                while read_some():                          # what it wrote just before it ended
                    pass
            elif time.time() > deadline:
                os.kill(pid, 9)                             # never hang the test run
                status = os.waitpid(pid, 0)[1]
        sys.stdout.write(out.decode("utf-8", "replace"))
        sys.stdout.write("\nEXIT %d\n" % status)

    """#

/// Python that starts the real `oceq` (`binary`) in a pseudo-terminal, in folder `root` with `state` as its home,
/// state and config folders and no channel, editrc, locale, pager or width from the caller's environment;
/// followed by `pseudoTerminalHelpers`. The driver defines `binary`, `root` and `state` before it.
let oceqPseudoTerminalStart = #"""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(root)
        for key in ["OCEQ_URL", "OCEQ_CHANNEL_TOKEN", "OCEQ_BEARER", "EDITRC", "LC_ALL", "PAGER", "COLUMNS"]:
            os.environ.pop(key, None)
        os.environ.update(TERM="xterm", HOME=state, XDG_STATE_HOME=state, XDG_CONFIG_HOME=state, LANG="C.UTF-8")
        os.execv(binary, [binary])
    """# + "\n" + pseudoTerminalHelpers

/// Runs `script` with `python` and `arguments`; what it printed (stdout and stderr).
func runPython(_ python: String, _ script: String, arguments: [String]) async throws -> String {
    let finished = try await ChildProcess(python, ["-c", script] + arguments, stdout: .pipe, stderr: .stdout).finish()
    return finished.stdoutText
}
