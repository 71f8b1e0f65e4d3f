// Whole writes of text to the process's standard output and error, unbuffered: what Foundation's
// `FileHandle.standardOutput/standardError.write` did for the targets oceq links, which use
// FoundationEssentials only.

/// The process's standard output and standard error, written to directly (no buffer to flush).
public enum StandardStream: Sendable {
    case output, error

    /// Writes all of `text`'s bytes (retrying after a signal or a short write); a failed write is dropped,
    /// as there is nowhere left to report it.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = try? FileSystem.writeAll(self == .output ? 1 : 2, UnsafeRawBufferPointer($0), path: "") }
    }
}
