// The one status line on stderr, shared by everything that draws one: the statement spinner of the
// REPL and the progress lines of `download` and `mirror`. Each is an activity; activities nest (the
// spinner begins, then the download inside the statement begins its progress), and the innermost
// one, the newest still running, owns the line: an outer activity's updates are kept but not drawn.
// When the innermost ends the line is cleared, and the next one shows again at its next update (the
// spinner ticks ten times a second), so nothing flashes when the statement ends right after.
//
// Every write goes through one lock: the spinner ticks on the main actor while the download pool's
// threads report progress. Other output of the session (results on stdout, messages on stderr) goes
// through `StatusLineGuard`, which clears the line before the text and draws it again after a whole
// line, so text never lands in the middle of a status line. A status line is cut to the terminal's
// width: one that wrapped could not be cleared by `\r ESC [K`.

import DeliveryKit
import OCEQCore

/// The self-overwriting line on stderr that spinners and progress lines share.
package final class StatusLine: @unchecked Sendable {
    /// One thing drawing on the line, from `begin()` to `end(_:)`.
    package struct Activity: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct State {
        /// The running activities, outermost first, with the text each last asked for.
        var activities: [(id: Int, text: String?)] = []
        var nextID = 0
        /// The text on the terminal now (nil: the line is clear).
        var shown: String?
    }

    private let sink: any OutputSink
    private let state = Locked(State())

    /// The control sequence that returns to the start of the line and clears it.
    package static let clear = "\r\u{1B}[K"

    /// A status line drawn on `sink` (the terminal's stderr).
    package init(sink: any OutputSink) {
        self.sink = sink
    }

    /// True when the line is drawn at all (the sink is a terminal).
    package var isTerminal: Bool { sink.isTerminal }

    /// Starts an activity inside those running; it shows nothing until it is updated.
    package func begin() -> Activity {
        state.withLock { state in
            state.nextID += 1
            state.activities.append((state.nextID, nil))
            return Activity(id: state.nextID)
        }
    }

    /// Sets what `activity` shows: drawn now when it is the innermost activity, else kept.
    package func update(_ activity: Activity, _ text: String) {
        state.withLock { state in
            guard let index = state.activities.firstIndex(where: { $0.id == activity.id }) else { return }
            state.activities[index].text = text
            if index == state.activities.count - 1 { draw(text, &state) }
        }
    }

    /// Ends `activity`; the line is cleared if it was showing it. An outer activity shows again at its
    /// next update.
    package func end(_ activity: Activity) {
        state.withLock { state in
            guard let index = state.activities.firstIndex(where: { $0.id == activity.id }) else { return }
            let wasInnermost = index == state.activities.count - 1
            state.activities.remove(at: index)
            if wasInnermost, state.shown != nil {
                sink.write(Self.clear)
                state.shown = nil
            }
        }
    }

    /// Runs `write` (other output to the same terminal) with the line out of its way: cleared before, and
    /// drawn again after when `endsLine` (the text ended in a newline, so the cursor is at a line's start).
    package func writing(endsLine: Bool, _ write: () -> Void) {
        state.withLock { state in
            guard let shown = state.shown else { return write() }
            sink.write(Self.clear)
            state.shown = nil
            write()
            if endsLine { draw(shown, &state) }
        }
    }

    private func draw(_ text: String, _ state: inout State) {
        guard sink.isTerminal else { return }
        let fitted = TerminalText.truncate(text, to: max(1, sink.width - 1))
        sink.write(Self.clear + fitted)
        state.shown = fitted
    }
}

/// An output sink whose writes keep clear of the session's status line (results on stdout, messages on
/// stderr, when both are the terminal the line is drawn on).
package final class StatusLineGuard: OutputSink {
    let inner: any OutputSink
    let owner: StatusLine

    /// `inner`, written around `statusLine`.
    package init(_ inner: any OutputSink, statusLine: StatusLine) {
        self.inner = inner
        self.owner = statusLine
    }

    package func write(_ text: String) {
        guard inner.isTerminal else { return inner.write(text) }
        owner.writing(endsLine: text.hasSuffix("\n")) { inner.write(text) }
    }

    package func write(utf8 bytes: [UInt8]) {
        guard inner.isTerminal else { return inner.write(utf8: bytes) }
        write(String(decoding: bytes, as: UTF8.self))
    }
    package var statusLine: StatusLine? { owner }
    package var isTerminal: Bool { inner.isTerminal }
    package var width: Int { inner.width }
    package var height: Int { inner.height }
}
