// The engine of `CurlTransport`: one libcurl multi handle and the thread that drives it (the
// overview is in CurlTransport.swift).

import CCurl
import CSystem
import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The multi handle and the thread that drives it.
final class CurlEngine: @unchecked Sendable {
    /// `curl_global_init`, once per process, before any handle.
    static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The engine `CurlTransport.prepare` started, until a transport takes it.
    private static let prepared = Locked<CurlEngine?>(nil)

    /// An engine with the default options started ahead of need (`CurlTransport.prepare`), once.
    static let preparing: Void = {
        let engine = CurlEngine(options: CurlTransport.Options())
        engine.start()
        prepared.withLock { $0 = engine }
    }()

    /// The engine started ahead, if it has `options` and no transport took it yet.
    static func takePrepared(options: CurlTransport.Options) -> CurlEngine? {
        prepared.withLock { engine in
            guard let found = engine, found.options == options else { return nil }
            engine = nil
            return found
        }
    }

    struct Shared {
        var pending: [CurlTransfer] = []
        var cancels: [CurlTransfer] = []
        var stopping = false
        var closed = false
        /// The engine thread is in (or about to enter) `curl_multi_poll` and nobody has woken it
        /// yet: only then do `submit`, `cancel` and `stop` wake it (`wake`). While it is awake, or
        /// woken and not yet running, it takes their work on its next turn, and a wake-up would only
        /// cost a write, a `poll` return and an idle turn (once a file at 500; after one wake-up,
        /// the files handed over before the thread ran wrote one byte each, 5 to 10 in a row).
        var sleeping = false

        /// Wake-ups written so far (a test counts them).
        private(set) var wakeUps = 0

        /// Wakes the engine thread when it sleeps, once: the first wake-up clears `sleeping`.
        mutating func wake() {
            guard sleeping, !closed, let multi else { return }
            sleeping = false
            wakeUps += 1
            _ = curl_multi_wakeup(multi.pointer)
        }
        /// The multi handle, once the engine thread has made it: until then there is no one to wake.
        var multi: MultiHandle?
    }

    /// The multi handle, which other threads only wake (`curl_multi_wakeup` is thread-safe).
    struct MultiHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    let options: CurlTransport.Options
    let shared = Locked(Shared())
    // Engine-thread state.
    private var active: [Int: CurlTransfer] = [:]
    private var idle: [UnsafeMutableRawPointer] = []
    /// Transfers waiting in their lanes for a place.
    private var waitingInLanes = 0
    /// Whether a transfer was added to the multi handle since the last `curl_multi_perform`.
    private var begunSincePerform = false

    init(options: CurlTransport.Options) {
        self.options = options
    }

    /// Starts the engine thread on another CPU than the caller's when there is one (then lets it run
    /// anywhere): queued behind its creator on the creator's CPU, it set libcurl up 1.1 ms late while
    /// the other CPU was idle, and a one-shot's first request waited for that.
    func start() {
        DetachedThread.start(configure: { attributes in _ = oceq_thread_attr_elsewhere(&attributes) }) { [self] in
            oceq_thread_run_anywhere()
            run()
        }
    }

    /// libcurl's set-up, on the engine thread before its first transfer.
    private func makeMulti() -> UnsafeMutableRawPointer {
        _ = CurlEngine.globalInit
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed") }
        _ = oceq_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = oceq_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 64)
        if options.maxConnectionsPerHost > 0 {
            _ = oceq_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.maxConnectionsPerHost)
        }
        return multi
    }

    func stop() {
        shared.withLock { state in
            state.stopping = true
            state.wake()
        }
    }

    func submit(_ transfer: CurlTransfer) {
        let refused = shared.withLock { state -> Bool in
            if transfer.cancelRequested || state.closed { return true }
            state.pending.append(transfer)
            state.wake()
            return false
        }
        if refused { transfer.resume(.failure(TransportError(.cancelled, message: "cancelled"))) }
    }

    func cancel(_ transfer: CurlTransfer) {
        let removed = shared.withLock { state -> Bool in
            transfer.cancelRequested = true
            if let index = state.pending.firstIndex(where: { $0 === transfer }) {
                state.pending.remove(at: index)
                return true
            }
            state.cancels.append(transfer)
            state.wake()
            return false
        }
        if removed { transfer.resume(.failure(TransportError(.cancelled, message: "cancelled"))) }
    }

    private func run() {
        let multi = makeMulti()
        // From here on `submit`, `cancel` and `stop` wake the thread; what they queued before is taken below.
        shared.withLock { $0.multi = MultiHandle(pointer: multi) }
        var running: Int32 = 0
        while true {
            let idleNow = active.isEmpty && waitingInLanes == 0
            let (adds, cancels, closed) = shared.withLock { state -> ([CurlTransfer], [CurlTransfer], Bool) in
                let taken = (state.pending, state.cancels)
                state.pending.removeAll()
                state.cancels.removeAll()
                if state.stopping && taken.0.isEmpty && idleNow { state.closed = true }
                return (taken.0, taken.1, state.closed)
            }
            if closed { break }
            for transfer in adds { admit(transfer, on: multi) }
            for transfer in cancels {
                if let easy = transfer.easy, active[Int(bitPattern: easy)] === transfer {
                    // Removed in mid-transfer: libcurl 7.88 then refuses some options on the reset
                    // handle (CURLOPT_BUFFERSIZE gave curl 43 to every later transfer that got it).
                    finish(
                        transfer, on: multi, .failure(TransportError(.cancelled, message: "cancelled")), reuse: false)
                } else if let lane = transfer.lane, lane.remove(transfer) {
                    waitingInLanes -= 1
                    transfer.resume(.failure(TransportError(.cancelled, message: "cancelled")))
                }
            }
            begunSincePerform = false
            _ = curl_multi_perform(multi, &running)
            drainMessages(multi)
            // A transfer that ended made room for a waiting one: send its request before sleeping.
            if begunSincePerform { continue }
            // Sleep only when nothing was queued meanwhile (the queue is looked at under the lock
            // that `sleeping` is set under, so what comes after wakes the thread).
            let idleAfter = active.isEmpty && waitingInLanes == 0
            let sleeps = shared.withLock { state -> Bool in
                guard state.pending.isEmpty, state.cancels.isEmpty, !(state.stopping && idleAfter) else { return false }
                state.sleeping = true
                return true
            }
            guard sleeps else { continue }
            var descriptors: Int32 = 0
            _ = curl_multi_poll(multi, nil, 0, active.isEmpty ? 10_000 : 1000, &descriptors)
            shared.withLock { $0.sleeping = false }
        }
        for easy in idle { curl_easy_cleanup(easy) }
        idle.removeAll()
        curl_multi_cleanup(multi)
    }

    private func drainMessages(_ multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard oceq_curl_msg_is_done(message) != 0, let easy = message.pointee.easy_handle,
                let transfer = active[Int(bitPattern: easy)]
            else { continue }
            let code = oceq_curl_msg_result(message)
            finish(transfer, on: multi, transfer.outcome(code))
        }
    }

    /// Begins `transfer`, or queues it in its lane when the lane is full.
    private func admit(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
        if let lane = transfer.lane, !lane.hasRoom {
            lane.enqueue(transfer)
            waitingInLanes += 1
            return
        }
        begin(transfer, on: multi)
    }

    private func begin(_ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer) {
        guard var easy = idle.popLast() ?? curl_easy_init() else {
            transfer.resume(.failure(TransportError(.other(2), message: "curl_easy_init failed")))
            return
        }
        transfer.easy = easy
        var code = transfer.configure()
        if code != CURLE_OK, let fresh = curl_easy_init() {
            // A recycled handle may refuse an option a new one takes: configure a new one once.
            transfer.release()
            curl_easy_cleanup(easy)
            easy = fresh
            transfer.easy = easy
            code = transfer.configure()
        }
        guard code == CURLE_OK else {
            transfer.release()
            recycle(easy)
            let kind: TransportError.Kind = code == CURLE_URL_MALFORMAT ? .invalidURL : .other(Int(code.rawValue))
            transfer.resume(.failure(TransportError(kind, message: String(cString: curl_easy_strerror(code)))))
            return
        }
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.release()
            recycle(easy)
            transfer.resume(.failure(TransportError(.other(0), message: "curl_multi_add_handle failed")))
            return
        }
        active[Int(bitPattern: easy)] = transfer
        transfer.lane?.running += 1
        begunSincePerform = true
    }

    private func finish(
        _ transfer: CurlTransfer, on multi: UnsafeMutableRawPointer,
        _ outcome: Result<HTTPResponseHead, TransportError>, reuse: Bool = true
    ) {
        guard let easy = transfer.easy else { return }
        _ = curl_multi_remove_handle(multi, easy)
        active[Int(bitPattern: easy)] = nil
        transfer.release()
        if reuse {
            recycle(easy)
        } else {
            curl_easy_cleanup(easy)
        }
        if let lane = transfer.lane {
            // The next waiting transfer starts before the task of this one is resumed.
            lane.running -= 1
            while lane.hasRoom, let next = lane.dequeue() {
                waitingInLanes -= 1
                // A waiting transfer cancelled since this loop took the cancels (its task is being
                // cancelled with this one's) ends here instead of sending its request.
                if shared.withLock({ _ in next.cancelRequested }) {
                    next.resume(.failure(TransportError(.cancelled, message: "cancelled")))
                } else {
                    begin(next, on: multi)
                }
            }
        }
        transfer.resume(outcome)
    }

    private func recycle(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        if idle.count < 32 {
            idle.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }
}
