// A bound on how many transfers of one batch run at once, kept by the libcurl engine itself.
//
// A download pool hands the engine more transfers than it may run (its `--concurrency` plus as many
// again, prepared ahead: request built, part measured, sink made). The engine starts at most `limit`
// of a lane's transfers and queues the rest in order; when one ends, it starts the next on its own
// thread before it resumes the task of the one that ended, as `curl --parallel` does. A file's next
// request then leaves within the engine's loop instead of after a round trip through Swift tasks
// (the end resumed, the pool's loop woken, a task started, the request built, the engine woken):
// 2.7 ms per file on a busy 2-core machine.
//
// The lane reaches `CurlTransport.perform` through a task-local value (`TransferLane.current`), set
// by the pool around each file's work, so the `Transport` protocol and the exchange loop (retries,
// logging) stay as they are. Only `CurlTransport` honours lanes: a pool over another transport starts
// no more tasks than it may run.

/// A limit on the transfers of one batch running at once in one `CurlTransport`; the rest wait in
/// the engine, which starts the next as soon as one ends.
final class TransferLane: @unchecked Sendable {
    /// The lane of the transfers the current task starts, if any.
    @TaskLocal static var current: TransferLane?

    /// Transfers of this lane running at once.
    let limit: Int
    // Engine-thread state (a lane is used with one transport, whose engine thread alone touches it).
    /// Transfers of this lane in the multi handle.
    var running = 0
    /// Transfers waiting for a place, oldest first from `head`.
    private var waiting: [CurlTransfer] = []
    private var head = 0

    /// A lane that runs at most `limit` transfers at once (at least one).
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Whether the lane has room for one more running transfer.
    var hasRoom: Bool { running < limit }

    /// Transfers waiting for a place.
    var waitingCount: Int { waiting.count - head }

    /// Queues a transfer behind the others.
    func enqueue(_ transfer: CurlTransfer) {
        waiting.append(transfer)
    }

    /// The oldest waiting transfer, taken off the queue.
    func dequeue() -> CurlTransfer? {
        guard head < waiting.count else { return nil }
        let transfer = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return transfer
    }

    /// Takes `transfer` off the queue; false when it was not waiting.
    func remove(_ transfer: CurlTransfer) -> Bool {
        guard let index = waiting[head...].firstIndex(where: { $0 === transfer }) else { return false }
        waiting.remove(at: index)
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return true
    }
}
