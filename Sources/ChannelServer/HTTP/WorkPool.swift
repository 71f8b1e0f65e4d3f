// WorkPool: a few threads of their own for slow answers (first-time renditions), so the server's
// request threads never wait for them. The queue is bounded: past it, `submit` refuses and the
// server answers 503 at once instead of piling work up.
import Dispatch
import FoundationEssentials
import OCEQCore

/// A fixed set of threads running submitted jobs in order, with a bounded queue.
final class WorkPool: @unchecked Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var closed = false
        var running = 0
    }
    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let threadCount: Int
    /// Jobs waiting beyond the running ones; more are refused.
    let queueLimit: Int

    /// Starts `threads` threads named `name`.
    init(threads: Int, queueLimit: Int, name: String) {
        threadCount = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        for index in 0..<threadCount {
            DetachedThread.start(name: "\(name)-\(index)") { [self] in work() }
        }
    }

    /// Queues `job`; false (and the job is not run) when the queue is full or the pool closed.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed, state.jobs.count < queueLimit + max(0, threadCount - state.running) else {
                return false
            }
            state.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Refuses new jobs, runs the queued ones, and waits for the threads to end.
    func close() {
        let wasClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        for _ in 0..<threadCount { available.signal() }
        for _ in 0..<threadCount { exited.wait() }
    }

    private func work() {
        while true {
            available.wait()
            let next: (@Sendable () -> Void)?? = state.withLock { state in
                if state.jobs.isEmpty { return state.closed ? .none : .some(nil) }
                state.running += 1
                return .some(state.jobs.removeFirst())
            }
            guard let next else { break }
            guard let job = next else { continue }
            job()
            state.withLock { $0.running -= 1 }
        }
        exited.signal()
    }
}
