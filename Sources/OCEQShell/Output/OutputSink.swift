// Where output goes. Commands never print: they return a result, a renderer turns it into text,
// and the text goes to a sink (stdout or stderr in the program, memory in tests).

import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A place text is written to.
package protocol OutputSink: AnyObject {
    /// Writes `text` as it is (no newline is added).
    func write(_ text: String)
    /// Writes `bytes`, valid UTF-8, as they are: what `write(String(decoding: bytes, as: UTF8.self))` writes.
    func write(utf8 bytes: [UInt8])
    /// True when the sink is a terminal (pretty JSON, table width, colour).
    var isTerminal: Bool { get }
    /// Columns available for a table (`Int.max / 4` when output is not a terminal and `COLUMNS`
    /// is not set: piped tables are never cut).
    var width: Int { get }
    /// Lines that fit on the screen (`Int.max` when output is not a terminal).
    var height: Int { get }
    /// The status line drawn on this sink's terminal, which a progress line must share (nil: none yet).
    var statusLine: StatusLine? { get }
}

extension OutputSink {
    /// None, unless the sink says otherwise.
    package var statusLine: StatusLine? { nil }

    /// As text, unless the sink writes bytes itself.
    package func write(utf8 bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }
}

/// A file descriptor: stdout or stderr.
package final class FileOutput: OutputSink {
    let descriptor: Int32
    package let isTerminal: Bool

    /// Writes to `descriptor` (1 for stdout, 2 for stderr).
    package init(descriptor: Int32) {
        self.descriptor = descriptor
        self.isTerminal = isatty(descriptor) == 1
    }

    /// Standard output.
    package static func standardOutput() -> FileOutput { FileOutput(descriptor: 1) }
    /// Standard error.
    package static func standardError() -> FileOutput { FileOutput(descriptor: 2) }

    package func write(_ text: String) {
        // Written from the string's own UTF-8 storage, without copying it into an array first.
        var text = text
        text.withUTF8(write)
    }

    /// Writes the bytes as they are (a JSON document the renderer made, without making a string of it).
    package func write(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer(write)
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        // A failed write (a closed pipe) is dropped: there is nowhere left to report it.
        _ = try? FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(bytes), path: "")
    }

    package var height: Int {
        var size = winsize()
        if isTerminal, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
        return isTerminal ? 24 : Int.max
    }

    package var width: Int {
        var size = winsize()
        if isTerminal, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = getenv("COLUMNS").map({ String(cString: $0) }), let value = Int(columns), value > 0 {
            return value
        }
        return isTerminal ? 80 : Int.max / 4
    }
}

/// Collects text in memory, for tests.
package final class MemoryOutput: OutputSink {
    /// Everything written so far.
    package private(set) var text = ""
    package var isTerminal: Bool
    package var width: Int
    package var height: Int

    /// An in-memory sink that claims to be a terminal of `width` columns and `height` lines.
    package init(isTerminal: Bool = false, width: Int = 80, height: Int = Int.max) {
        self.isTerminal = isTerminal
        self.width = width
        self.height = height
    }

    package func write(_ text: String) { self.text += text }

    /// Forgets what was written.
    package func clear() { text = "" }
}

/// Passes messages on with the connection's secrets replaced by `REDACTED`: the session's error
/// sink, whose lines may echo a typed statement or a server's text about the request. Results
/// never go through it (content is not rewritten).
package final class RedactingOutput: OutputSink {
    let inner: any OutputSink
    let redactor: Redactor

    /// Wraps `inner`, hiding what `redactor` knows.
    package init(_ inner: any OutputSink, redactor: Redactor) {
        self.inner = inner
        self.redactor = redactor
    }

    package func write(_ text: String) { inner.write(redactor.redact(text)) }
    package var statusLine: StatusLine? { inner.statusLine }
    package var isTerminal: Bool { inner.isTerminal }
    package var width: Int { inner.width }
    package var height: Int { inner.height }

    /// `text` as this sink would write it.
    package func redact(_ text: String) -> String { redactor.redact(text) }
}
