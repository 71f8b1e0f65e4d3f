// The progress of a batch on a terminal: one line on stderr, redrawn at most ten times a second,
// for the whole selection (files done of all, bytes, rate, time left when the sizes are known),
// with a line printed above it for each file that fails. Nothing at all when stderr is not a
// terminal. Called from the download pool's threads, so everything goes through one lock.

import DeliveryKit
import Foundation
import OCEQShell

/// The redrawn progress line of one batch.
final class DownloadProgressLine: @unchecked Sendable {
    private struct State {
        var totals = DownloadCounts()
        var lastDraw: ContinuousClock.Instant?
        var shown = false
    }

    /// What the line shows.
    struct DownloadCounts {
        var done = 0
        var bytes: Int64 = 0
    }

    private let sink: any OutputSink
    private let files: Int
    private let expectedBytes: Int64?
    private let start = ContinuousClock.now
    private let state = Locked(State())

    /// A line for `files` files of `expectedBytes` in all (nil when unknown), drawn on `sink`.
    init(sink: any OutputSink, files: Int, expectedBytes: Int64?) {
        self.sink = sink
        self.files = files
        self.expectedBytes = expectedBytes
    }

    /// Records progress and redraws when the last draw is 0.1 s old (always when `force`).
    func update(done: Int? = nil, bytes: Int64? = nil, force: Bool = false) {
        state.withLock { state in
            if let done { state.totals.done = max(state.totals.done, done) }
            if let bytes { state.totals.bytes = max(state.totals.bytes, bytes) }
            let now = ContinuousClock.now
            if !force, let last = state.lastDraw, now - last < .milliseconds(100) { return }
            state.lastDraw = now
            state.shown = true
            sink.write("\r\u{1B}[K" + text(state.totals, elapsed: now - start))
        }
    }

    /// Prints `line` above the progress line.
    func note(_ line: String) {
        state.withLock { state in
            sink.write((state.shown ? "\r\u{1B}[K" : "") + line + "\n")
            if state.shown { sink.write(text(state.totals, elapsed: ContinuousClock.now - start)) }
        }
    }

    /// Removes the line.
    func finish() {
        state.withLock { state in
            if state.shown { sink.write("\r\u{1B}[K") }
            state.shown = false
        }
    }

    /// `download 12/200 files, 1.2 MB of 9.8 MB, 640.0 KB/s, 14s left`
    func text(_ counts: DownloadCounts, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var out = "download \(counts.done)/\(files) files, \(ByteCount.text(counts.bytes))"
        if let expectedBytes, expectedBytes > 0 { out += " of \(ByteCount.text(expectedBytes))" }
        guard seconds >= 0.5, counts.bytes > 0 else { return out }
        let rate = Double(counts.bytes) / seconds
        out += ", \(ByteCount.text(Int64(rate)))/s"
        if let expectedBytes, expectedBytes > counts.bytes {
            out += ", \(Int((Double(expectedBytes - counts.bytes) / rate).rounded(.up)))s left"
        }
        return out
    }
}
