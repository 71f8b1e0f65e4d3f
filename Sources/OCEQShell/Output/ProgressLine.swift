// The progress of a long command on a terminal (`download`, `mirror`): one line on stderr,
// redrawn at most ten times a second, with lines printed above it (a file that failed) and removed
// at the end. It shows a phase (`mirror: items 40/146`) or a batch of files (`download: 12/200
// files, 1.2 MB of 9.8 MB, 640.0 KB/s, 14s left`): counts and byte totals, never text from the
// server unless the caller cleaned it. Commands make one only when stderr is a terminal. Called
// from the download pool's threads, so everything goes through one lock. It draws through the
// terminal's `StatusLine` (the session's, found through the sink), as an activity inside the
// statement's spinner, so the two never write over each other.

import DeliveryKit
import OCEQCore

/// A self-overwriting status line.
package final class ProgressLine: @unchecked Sendable {
    /// What the line shows now.
    private struct State {
        /// A phase's text, when no batch is shown.
        var text = ""
        /// The batch shown: its size in files and bytes (nil: unknown); nil for a phase.
        var batch: (files: Int, expectedBytes: Int64?)?
        var done = 0
        var bytes: Int64 = 0
        var lastDraw: ContinuousClock.Instant?
        var finished = false
    }

    private let statusLine: StatusLine
    private let activity: StatusLine.Activity
    /// Where notes go: the sink given (the session's, redacting and written around the status line).
    private let sink: any OutputSink
    private let label: String
    private let interval: Duration
    private let start = ContinuousClock.now
    private let state = Locked(State())

    /// A line `label: ...` on `sink`'s status line (its own when the sink has none), redrawn at most
    /// once per `interval`.
    package init(label: String, sink: any OutputSink, interval: Duration = .milliseconds(100)) {
        self.label = label
        if let shared = sink.statusLine {
            (self.statusLine, self.sink) = (shared, sink)
        } else {
            let own = StatusLine(sink: sink)
            (self.statusLine, self.sink) = (own, StatusLineGuard(sink, statusLine: own))
        }
        self.activity = statusLine.begin()
        self.interval = interval
    }

    /// Shows `text` (a phase: `items 40/146`); drawn unless the last draw is younger than the
    /// interval (always when `force`).
    package func show(_ text: String, force: Bool = false) {
        state.withLock { state in
            state.text = text
            state.batch = nil
            draw(&state, force: force)
        }
    }

    /// Shows a batch: `done` of `files` files finished, `bytes` received of `expectedBytes` (nil
    /// when unknown); drawn as `show` is. The counts only grow: a report from one of the pool's
    /// threads that arrives late does not move them back.
    package func transfer(done: Int, of files: Int, bytes: Int64, expectedBytes: Int64? = nil, force: Bool = false) {
        state.withLock { state in
            if state.batch == nil { (state.done, state.bytes) = (0, 0) }
            state.batch = (files, expectedBytes)
            state.done = max(state.done, done)
            state.bytes = max(state.bytes, bytes)
            draw(&state, force: force)
        }
    }

    /// Prints `line` above the progress line.
    package func note(_ line: String) {
        sink.write(line + "\n")
    }

    /// Removes the line (the activity ends; a spinner around it shows again at its next tick).
    package func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            statusLine.end(activity)
        }
    }

    private func draw(_ state: inout State, force: Bool) {
        let now = ContinuousClock.now
        if state.finished || (!force && state.lastDraw.map { now - $0 < interval } == true) { return }
        state.lastDraw = now
        statusLine.update(activity, text(state, elapsed: now - start))
    }

    private func text(_ state: State, elapsed: Duration) -> String {
        guard let batch = state.batch else { return label + ": " + state.text }
        return label + ": "
            + Self.batchText(
                done: state.done, files: batch.files, bytes: state.bytes, expectedBytes: batch.expectedBytes,
                elapsed: elapsed)
    }

    /// `12/200 files, 1.2 MB of 9.8 MB, 640.0 KB/s, 14s left`: the rate once half a second has
    /// passed and bytes arrived, the time left when the total is known.
    static func batchText(done: Int, files: Int, bytes: Int64, expectedBytes: Int64?, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var out = "\(done)/\(files) files, \(ByteCount.text(bytes))"
        if let expectedBytes, expectedBytes > 0 { out += " of \(ByteCount.text(expectedBytes))" }
        guard seconds >= 0.5, bytes > 0 else { return out }
        let rate = Double(bytes) / seconds
        out += ", \(ByteCount.text(Int64(rate)))/s"
        if let expectedBytes, expectedBytes > bytes {
            out += ", \(Int((Double(expectedBytes - bytes) / rate).rounded(.up)))s left"
        }
        return out
    }
}
