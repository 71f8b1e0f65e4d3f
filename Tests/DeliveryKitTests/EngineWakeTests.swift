// The engine thread is woken once for the work handed to it while it sleeps: the first `submit`
// writes the wake-up and clears `sleeping`, and the files handed over before the thread runs ride on
// it (each had written a byte of its own: 5 to 10 in a row during a download).

import CCurl
import Testing

@testable import DeliveryTransport

@Suite("Waking libcurl's engine thread")
struct EngineWakeTests {
    @Test("work handed over while the engine sleeps wakes it once; none while it is awake or closed")
    func onceWhileAsleep() throws {
        _ = CurlEngine.globalInit
        let multi = try #require(curl_multi_init())
        defer { curl_multi_cleanup(multi) }
        var shared = CurlEngine.Shared()
        shared.multi = CurlEngine.MultiHandle(pointer: multi)
        // Awake: nothing to write.
        shared.wake()
        #expect(shared.wakeUps == 0)
        // Asleep: the first hand-over wakes it, the next ones find it woken.
        shared.sleeping = true
        for _ in 0..<8 { shared.wake() }
        #expect(shared.wakeUps == 1)
        #expect(!shared.sleeping)
        // Asleep again (it ran, found nothing, and went back to `curl_multi_poll`): one more.
        shared.sleeping = true
        shared.wake()
        shared.wake()
        #expect(shared.wakeUps == 2)
        // Closed: no one to wake.
        shared.sleeping = true
        shared.closed = true
        shared.wake()
        #expect(shared.wakeUps == 2)
    }
}
