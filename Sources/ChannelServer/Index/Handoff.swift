import Dispatch
import OCEQCore

/// One value handed from one thread to another: `take` waits until `put` has given it.
final class Handoff<Value: Sendable>: Sendable {
    private let value = Locked<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Gives the value (once).
    func put(_ newValue: Value) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    /// Waits for the value and takes it (once).
    func take() -> Value {
        ready.wait()
        return value.withLock { $0.take()! }
    }
}
