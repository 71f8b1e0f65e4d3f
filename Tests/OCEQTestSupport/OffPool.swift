// Blocking work in an async test, run where it cannot starve the other tests.
//
// Swift Testing runs every test on the cooperative pool, which has one thread per core: two on
// the machines CI runs on. A test that blocks one of those threads (waiting for a child process,
// polling a file, reading a socket) stops half of all other tests until it is done; two such
// tests stop all of them. Session 7 measured every parallel run waiting 20-27 s before its first
// result because of this, and two cancellation tests failed when their short server stalls ended
// while they were starved. Every helper in OCEQTestSupport that waits on something outside the
// process therefore waits on a thread of its own, through `OffPool.run`, and is `async`.

import Foundation

/// Runs blocking work on a thread of its own and resumes the awaiting task when it ends.
public enum OffPool {
    /// Runs `work` on a new thread; its result or error is the caller's.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }

    /// Runs `work`, which cannot fail, on a new thread.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.start()
        }
    }
}
