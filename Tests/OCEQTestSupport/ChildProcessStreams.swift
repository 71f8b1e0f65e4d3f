// The piped stdout and stderr of one ChildProcess, read into memory by a thread of their own while
// the child runs (poll on both, so neither pipe fills while the other is read), and the `.bytes`
// stdin written by the same thread, then closed. SIGPIPE is blocked on that thread: a child that
// exits before reading its input makes the write fail with EPIPE instead of killing the tests.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a child wrote to its pipes so far, and the thread that reads them.
final class ChildProcessStreams: @unchecked Sendable {
    private let condition = NSCondition()
    private var stdout: [UInt8] = []
    private var stderr: [UInt8] = []
    private var open: (stdout: Bool, stderr: Bool)
    private var lineStart = 0

    /// Reads `stdout` and `stderr` (descriptors, -1 when not piped) until their end and writes
    /// `bytes` to `input` (-1 when none); closes each at its end.
    init(stdout: Int32, stderr: Int32, input: Int32, bytes: [UInt8]) {
        open = (stdout >= 0, stderr >= 0)
        guard stdout >= 0 || stderr >= 0 || input >= 0 else { return }
        if input >= 0 { _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK) }
        let thread = Thread { [self] in pump(stdout: stdout, stderr: stderr, input: input, bytes: bytes) }
        thread.name = "ChildProcessStreams"
        thread.start()
    }

    /// Both outputs once both have ended.
    func readToEnd() -> (stdout: [UInt8], stderr: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        while open.stdout || open.stderr { condition.wait() }
        return (stdout, stderr)
    }

    /// The next line of stdout (without its newline) once it is complete, the rest at the end, or nil.
    func readLine() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let newline = stdout[lineStart...].firstIndex(of: 10) {
                defer { lineStart = newline + 1 }
                return Array(stdout[lineStart..<newline])
            }
            if !open.stdout {
                guard lineStart < stdout.count else { return nil }
                defer { lineStart = stdout.count }
                return Array(stdout[lineStart...])
            }
            condition.wait()
        }
    }

    private func pump(stdout: Int32, stderr: Int32, input: Int32, bytes: [UInt8]) {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &brokenPipe, nil)
        var fds = (stdout: stdout, stderr: stderr, input: input)
        var written = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        if fds.input >= 0, bytes.isEmpty {
            close(fds.input)
            fds.input = -1
        }
        while fds.stdout >= 0 || fds.stderr >= 0 || fds.input >= 0 {
            var watched: [pollfd] = []
            if fds.stdout >= 0 { watched.append(pollfd(fd: fds.stdout, events: Int16(POLLIN), revents: 0)) }
            if fds.stderr >= 0 { watched.append(pollfd(fd: fds.stderr, events: Int16(POLLIN), revents: 0)) }
            if fds.input >= 0 { watched.append(pollfd(fd: fds.input, events: Int16(POLLOUT), revents: 0)) }
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                fatalError("poll: \(String(cString: strerror(errno)))")
            }
            for entry in watched where entry.revents != 0 {
                if entry.fd == fds.input {
                    let count = bytes.withUnsafeBytes { write(entry.fd, $0.baseAddress! + written, $0.count - written) }
                    if count > 0 { written += count }
                    let retry = count < 0 && (errno == EINTR || errno == EAGAIN)
                    if written == bytes.count || (count < 0 && !retry) {
                        close(entry.fd)
                        fds.input = -1
                    }
                    continue
                }
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress!, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                let isStdout = entry.fd == fds.stdout
                condition.lock()
                if count > 0 {
                    if isStdout { self.stdout += chunk[..<count] } else { self.stderr += chunk[..<count] }
                } else {
                    close(entry.fd)
                    if isStdout {
                        open.stdout = false
                        fds.stdout = -1
                    } else {
                        open.stderr = false
                        fds.stderr = -1
                    }
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        // A SIGPIPE from a write to a child that had gone is still pending on this thread: drop it.
        var none = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&brokenPipe, nil, &none) == SIGPIPE {}
    }
}
