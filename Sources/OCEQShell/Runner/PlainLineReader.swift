// Lines from a file descriptor with no editing: for stdin that is not a terminal, and for a
// terminal until libedit is there. It reads with `read(2)` into its own buffer (nothing else may
// read the same descriptor), shows the prompt only on a terminal, and waits with poll() on the
// descriptor and a pipe that a Ctrl-C subscriber writes to, so Ctrl-C ends the read at once with
// `.interrupted` (the partial line is dropped), whichever thread the signal reached.

import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A line reader over a file descriptor (stdin by default).
package final class PlainLineReader: LineReader {
    let descriptor: Int32
    let showsPrompt: Bool
    let promptSink: any OutputSink
    var buffer: [UInt8] = []
    var atEnd = false
    /// Woken by Ctrl-C while a line is read.
    private let wake = WakePipe()

    /// Reads `descriptor`; prompts go to `promptSink` only when `descriptor` is a terminal.
    package init(descriptor: Int32 = 0, promptSink: any OutputSink = FileOutput.standardOutput()) {
        self.descriptor = descriptor
        self.showsPrompt = isatty(descriptor) == 1
        self.promptSink = promptSink
    }

    package func readLine(prompt: String) -> LineReadResult {
        if showsPrompt { promptSink.write(prompt) }
        wake.drain()
        let wake = self.wake
        let subscription = Interrupts.subscribe { wake.signal() }
        defer { subscription.cancel() }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 0x0D { line.removeLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if atEnd {
                if buffer.isEmpty { return .end }
                let line = buffer
                buffer.removeAll()
                return .line(String(decoding: line, as: UTF8.self))
            }
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.reader, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                atEnd = true
                continue
            }
            if fds[1].revents != 0 {
                wake.drain()
                buffer.removeAll()
                if showsPrompt { promptSink.write("\n") }
                return .interrupted
            }
            guard fds[0].revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                atEnd = true
            } else if count == 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    package func addHistory(_ entry: String) {}
}

/// A pipe that one thread waits on with poll() and another (or a Ctrl-C subscriber) writes to.
final class WakePipe: Sendable {
    /// The end to poll; -1 when no pipe could be made (the reader then only waits for input).
    let reader: Int32
    private let writer: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            }
        }
        reader = fds[0]
        writer = fds[1]
    }

    deinit {
        if reader >= 0 { close(reader) }
        if writer >= 0 { close(writer) }
    }

    /// Wakes the waiting thread.
    func signal() {
        guard writer >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    /// Empties the pipe.
    func drain() {
        guard reader >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(reader, &bytes, bytes.count) > 0 {}
    }
}
