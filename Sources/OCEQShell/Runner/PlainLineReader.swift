// Lines from a file descriptor with no editing: for stdin that is not a terminal, and for a
// terminal until libedit is there. It reads with `read(2)` into its own buffer (nothing else may
// read the same descriptor), shows the prompt only on a terminal, and maps EINTR after Ctrl-C to
// `.interrupted` (the partial line is dropped).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A line reader over a file descriptor (stdin by default).
public final class PlainLineReader: LineReader {
    let descriptor: Int32
    let showsPrompt: Bool
    let promptSink: any OutputSink
    var buffer: [UInt8] = []
    var atEnd = false

    /// Reads `descriptor`; prompts go to `promptSink` only when `descriptor` is a terminal.
    public init(descriptor: Int32 = 0, promptSink: any OutputSink = FileOutput.standardOutput()) {
        self.descriptor = descriptor
        self.showsPrompt = isatty(descriptor) == 1
        self.promptSink = promptSink
    }

    public func readLine(prompt: String) -> LineReadResult {
        if showsPrompt { promptSink.write(prompt) }
        let mask = Interrupts.beginRead()
        defer { Interrupts.endRead(restoring: mask) }
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
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR {
                    if Interrupts.isSet {
                        Interrupts.clear()
                        buffer.removeAll()
                        if showsPrompt { promptSink.write("\n") }
                        return .interrupted
                    }
                    continue
                }
                atEnd = true
            } else if count == 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    public func addHistory(_ entry: String) {}
}
