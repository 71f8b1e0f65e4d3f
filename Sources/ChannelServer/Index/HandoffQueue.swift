import Dispatch
import OCEQCore

/// Values handed from one thread to another in order: `take` waits for the next one, and gives nil
/// for ever once the queue is closed and emptied.
final class HandoffQueue<Value: Sendable>: Sendable {
    /// The values given and not yet taken; a nil closes the queue.
    private let values = Locked<[Value?]>([])
    private let ready = DispatchSemaphore(value: 0)

    /// Gives the next value.
    func put(_ value: Value) {
        values.withLock { $0.append(value) }
        ready.signal()
    }

    /// Gives no more values: `take` gives nil after the ones given.
    func close() {
        values.withLock { $0.append(nil) }
        ready.signal()
    }

    /// Waits for the next value and takes it; nil once the queue is closed.
    func take() -> Value? {
        ready.wait()
        return values.withLock { values in
            guard let value = values.first! else {
                ready.signal()  // the nil stays, for the next take
                return nil
            }
            values.removeFirst()
            return value
        }
    }
}
