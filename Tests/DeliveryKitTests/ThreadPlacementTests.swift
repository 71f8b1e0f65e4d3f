import CSystem
import OCEQCore
import Testing

/// Where a detached thread starts: `CurlEngine` starts its thread away from the caller's CPU
/// (`oceq_thread_attr_elsewhere`), and the thread then lets itself run anywhere.
@Suite("Thread placement: a thread started elsewhere, then free")
struct ThreadPlacementTests {
    @Test("a thread started elsewhere may not run on its creator's CPU until it lets itself run anywhere")
    func elsewhereThenAnywhere() async {
        let total = oceq_thread_cpu_count()
        #expect(total >= 1)
        let seen = Locked<(set: Int32, before: Int32, after: Int32)>((0, 0, 0))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DetachedThread.start(configure: { attributes in
                let set = oceq_thread_attr_elsewhere(&attributes)
                seen.withLock { $0.set = set }
            }) {
                let before = oceq_thread_cpu_count()
                oceq_thread_run_anywhere()
                let after = oceq_thread_cpu_count()
                seen.withLock {
                    $0.before = before
                    $0.after = after
                }
                done.resume()
            }
        }
        let result = seen.withLock { $0 }
        // One CPU: nothing to move to, and the thread starts as any other.
        #expect(result.set == (total >= 2 ? 1 : 0))
        #expect(result.before == (total >= 2 ? total - 1 : total))
        #expect(result.after == total)
    }
}
