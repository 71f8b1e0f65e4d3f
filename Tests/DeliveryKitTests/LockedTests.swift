import DeliveryKit
import Dispatch
import OCEQCore
import Testing

/// `Locked`, the lock that replaces `Synchronization.Mutex` so ThreadSanitizer sees the locking.
/// Under `Scripts/sanitize tsan` these also check that TSan reports nothing for a correctly locked
/// counter (with `Mutex` the same test drew "Swift access race").
@Suite("Locked")
struct LockedTests {
    /// A class field guarded by a `Locked` (as `CurlTransfer` guards its fields by the engine's lock).
    final class Tally: @unchecked Sendable {
        var hits = 0
    }

    @Test("increments from many threads at once are all kept, in the value and in a guarded field")
    func concurrentIncrements() {
        let counter = Locked(0)
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<5_000 {
                counter.withLock { value in
                    value += 1
                    tally.hits += 1
                }
            }
        }
        #expect(counter.withLock { $0 } == 40_000)
        #expect(counter.withLock { _ in tally.hits } == 40_000)
    }

    struct Refused: Error, Equatable {}

    @Test("an error thrown inside withLock reaches the caller, keeps the change made, and unlocks")
    func throwingBody() {
        let list = Locked([1, 2])
        #expect(throws: Refused()) {
            try list.withLock { (value: inout [Int]) throws(Refused) -> Void in
                value.append(3)
                throw Refused()
            }
        }
        let taken = list.withLock { value -> [Int] in
            defer { value.removeAll() }
            return value
        }
        #expect(taken == [1, 2, 3])
        #expect(list.withLock { $0.isEmpty })
    }

    @Test("testAndSet: of many threads racing, exactly one finds the flag unset, and it stays set")
    func testAndSet() {
        let flag = Locked(false)
        let firsts = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if !flag.testAndSet() { firsts.withLock { $0 += 1 } }
        }
        #expect(firsts.withLock { $0 } == 1)
        #expect(flag.withLock { $0 })
        #expect(flag.testAndSet())
    }
}
