// One self-overwriting status line on standard error, used only when it is a terminal. It shows
// counts and byte totals, never text from the server.

import DeliveryKit
import Foundation

/// A status line redrawn at most ten times a second.
final class ProgressLine: Sendable {
    private let state = Locked<(last: ContinuousClock.Instant?, shown: Bool)>((nil, false))

    /// Shows `text` as `mirror: text` unless the line was redrawn less than 0.1 s ago.
    func show(_ text: String) {
        let draw = state.withLock { state -> Bool in
            let now = ContinuousClock.now
            if let last = state.last, now - last < .milliseconds(100) { return false }
            state = (now, true)
            return true
        }
        if draw { FileHandle.standardError.write(Data("\r\u{1B}[2Kmirror: \(text)".utf8)) }
    }

    /// Clears the line.
    func finish() {
        let shown = state.withLock { state -> Bool in
            defer { state.shown = false }
            return state.shown
        }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
