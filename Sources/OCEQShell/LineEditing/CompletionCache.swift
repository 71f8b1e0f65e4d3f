// What Tab and the compiler learned from the channel (its schema, the names of a type's items, the values
// of a field), kept for the session until `refresh`. A lookup runs in its own task and Tab waits for it only
// so long: one that takes longer goes on, and its answer is here for the next Tab.

import DeliveryKit
import Dispatch
import OCEQCore

/// The channel lookups that completion made, by key, for the rest of the session.
package final class CompletionCache: Sendable {
    /// How long Tab waits for a lookup that is not cached yet.
    package static let defaultTimeout: Duration = .milliseconds(1500)

    private struct State {
        var values: [String: any Sendable] = [:]
        var running: Set<String> = []
        /// Bumped by `clear()`, so that a lookup started before it does not store its answer after it.
        var generation = 0
    }
    private let state = Locked(State())

    /// An empty cache.
    package init() {}

    /// Forgets everything (the `refresh` command).
    package func clear() {
        state.withLock {
            $0.values.removeAll()
            $0.running.removeAll()
            $0.generation += 1
        }
    }

    /// Number of answers kept.
    package var count: Int { state.withLock { $0.values.count } }

    /// True while a lookup that Tab stopped waiting for is still running.
    package var isLookingUp: Bool { state.withLock { !$0.running.isEmpty } }

    /// The cached answer for `key`, if any.
    package func cached<Value: Sendable>(_ key: String, as type: Value.Type = Value.self) -> Value? {
        state.withLock { $0.values[key] as? Value }
    }

    /// Keeps `value` for `key`.
    package func store(_ key: String, _ value: some Sendable) {
        state.withLock { $0.values[key] = value }
    }

    /// The answer for `key`: cached, or computed by `work` and kept (no timeout: for a statement, which
    /// waits for what it needs). When `work` fails, its error is thrown and nothing is kept. `work` runs
    /// where the caller runs, so a statement's lookup hops to no other thread but libcurl's.
    nonisolated(nonsending) package func load<Value: Sendable>(
        _ key: String, _ work: nonisolated(nonsending) @Sendable () async throws -> Value
    ) async throws -> Value {
        if let value: Value = cached(key) { return value }
        let generation = state.withLock { $0.generation }
        let value = try await work()
        state.withLock { state in
            if state.generation == generation { state.values[key] = value }
        }
        return value
    }

    /// The answer for `key`: cached, or computed by `work` within `timeout`. Nil when `work` fails (nothing is
    /// kept, so a later Tab asks again), when it takes longer (it goes on and keeps its answer), or when the
    /// same lookup is already running.
    package func value<Value: Sendable>(
        _ key: String, timeout: Duration = CompletionCache.defaultTimeout,
        _ work: @escaping @Sendable () async throws -> Value
    ) -> Value? {
        let generation: Int? = state.withLock { state in
            if state.values[key] != nil || state.running.contains(key) { return nil }
            state.running.insert(key)
            return state.generation
        }
        guard let generation else { return cached(key) }
        let done = DispatchSemaphore(value: 0)
        // Tab waits on the caller's thread: in the REPL the line-reading thread (see `LineInput`), where waiting
        // costs nothing and the cooperative pool is idle. The lookup still runs on a queue of its own, not the
        // pool, for the tests: there other tests hold the pool's threads (two on a 2-core machine) while they
        // wait for processes, and a lookup on the pool timed out (measured: "refresh forgets what completion
        // learned" failed after 15.8 s in Scripts/test with the lookup in a plain detached task).
        Task.detached(executorPreference: CompletionCache.executor) { [self] in
            let value = try? await work()
            self.state.withLock { state in
                guard state.generation == generation else { return }
                state.running.remove(key)
                if let value { state.values[key] = value }
            }
            done.signal()
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        _ = done.wait(timeout: .now() + .nanoseconds(nanoseconds))
        return cached(key)
    }
}

/// Runs the jobs of completion lookups on a serial dispatch queue, which gets a thread of its own even when
/// every thread of the cooperative pool is blocked (as the one waiting for Tab is).
final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension CompletionCache {
    /// Where lookups run.
    static let executor = QueueTaskExecutor(label: "oceq.completion")
}
