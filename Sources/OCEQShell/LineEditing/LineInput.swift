// Lines read on a thread of their own. A line reader blocks (libedit's `el_gets`, `read(2)`), and
// blocking a thread of Swift's cooperative pool starves the tasks that need it (Tab's channel
// lookups among them). So the reader lives on one dedicated thread for its whole life: the REPL
// posts "read a line" with the completer for it and awaits the answer; libedit's Tab callback
// runs on that thread with that completer, a value made from the session before the line, so the
// session itself never leaves the REPL. Jobs run in the order posted.

import Dispatch
import FoundationEssentials
import OCEQCore

/// A line reader on a dedicated thread, awaited.
package final class LineInput: Sendable {
    private typealias Job = @Sendable (any LineReader) -> Void
    /// The jobs not yet taken; nil asks the thread to end.
    private let jobs = Locked<[Job?]>([])
    /// Counts the jobs posted.
    private let posted = DispatchSemaphore(value: 0)

    /// Starts the thread that owns `reader` from now on (and releases it when this input goes away).
    package init(reader: sending any LineReader) {
        let handover = Locked<(any LineReader)?>(reader)
        let jobs = self.jobs
        let posted = self.posted
        DetachedThread.start(name: "oceq-line-input") {
            guard let reader = handover.withLock({ $0.take() }) else { return }
            while true {
                posted.wait()
                let next: Job?? = jobs.withLock { $0.isEmpty ? .none : .some($0.removeFirst()) }
                guard case .some(let job) = next else { continue }
                guard let job else { return }
                job(reader)
            }
        }
    }

    deinit {
        post(nil)
    }

    private func post(_ job: Job?) {
        jobs.withLock { $0.append(job) }
        posted.signal()
    }

    /// The next line, read after showing `prompt`, with Tab offering what `completer` finds.
    package func readLine(prompt: String, completer: Completer? = nil) async -> LineReadResult {
        await withCheckedContinuation { continuation in
            post { reader in
                reader.setCompleter(completer)
                continuation.resume(returning: reader.readLine(prompt: prompt))
            }
        }
    }

    /// Records `entry` in the reader's history, in order with the reads.
    package func addHistory(_ entry: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            post { reader in
                reader.addHistory(entry)
                continuation.resume()
            }
        }
    }
}
