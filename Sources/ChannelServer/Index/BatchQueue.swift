import Dispatch
import OCEQCore

/// A bounded first-in first-out queue from one producer thread to one consumer thread: `put`
/// waits while `capacity` values wait unread; `take` waits for the next value; `poll` takes one
/// only when one is ready. The consumer stops the producer with `cancel` (later puts return at
/// once and drop their value), so a consumer that gives up never leaves the producer waiting.
final class BatchQueue<Value: Sendable>: Sendable {
    private let state = Locked(State())
    private let free: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private let capacity: Int

    private struct State {
        var values: [Value] = []
        var cancelled = false
    }

    /// A queue holding at most `capacity` unread values.
    init(capacity: Int) {
        self.capacity = capacity
        free = DispatchSemaphore(value: capacity)
    }

    /// Appends `value`, waiting for room; false when the consumer has cancelled (nothing added).
    @discardableResult
    func put(_ value: Value) -> Bool {
        guard !state.withLock({ $0.cancelled }) else { return false }
        free.wait()
        let added = state.withLock { state in
            guard !state.cancelled else { return false }
            state.values.append(value)
            return true
        }
        if added { ready.signal() }
        return added
    }

    /// The next value, waiting for it.
    func take() -> Value {
        ready.wait()
        return next()
    }

    /// The next value when one is ready, else nil at once.
    func poll() -> Value? {
        guard ready.wait(timeout: .now()) == .success else { return nil }
        return next()
    }

    /// Stops the producer: its waiting and later `put`s return false.
    func cancel() {
        state.withLock { $0.cancelled = true }
        for _ in 0...capacity { free.signal() }
    }

    private func next() -> Value {
        // At most `capacity` values wait, so removing the first moves only a few.
        let value = state.withLock { $0.values.removeFirst() }
        free.signal()
        return value
    }
}
