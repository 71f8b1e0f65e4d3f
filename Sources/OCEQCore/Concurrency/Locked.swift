// A value behind a `pthread_mutex_t`: the lock every module uses for state shared between
// threads, in place of `Synchronization.Mutex`.
//
// Why not `Mutex`: on Linux, Swift's `Mutex` is a futex the runtime locks with raw `futex`
// system calls, which ThreadSanitizer does not intercept, so TSan sees no happens-before edge
// between one `withLock` and the next and reports every access as a race (a counter bumped under
// `Mutex` from 8 threads came out exact and still drew "Swift access race"; the same counter under
// `pthread_mutex_lock` drew nothing). `pthread_mutex_lock` is intercepted, so the suite under
// `Scripts/sanitize tsan` reports only real races. The API is `Mutex`'s, so a switch is a rename.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value only reached inside `withLock`, from any thread.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `initialValue`.
    public init(_ initialValue: sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock; not reentrant.
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked where Value == Bool {
    /// Sets the flag; whether it was set already (by an earlier call, on any thread). The one call
    /// that finds it unset is the one to act: stopping a watchdog, ending a build.
    public func testAndSet() -> Bool {
        withLock { value in
            defer { value = true }
            return value
        }
    }
}
