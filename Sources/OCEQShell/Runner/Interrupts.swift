// Ctrl-C, from one source. The process installs one SIGINT handler, once (`Interrupts.install()`):
// it only writes a byte to a pipe, which is async-signal-safe. A dispatch source reads the pipe
// and calls the innermost subscriber, outside the signal handler, so a subscriber may do anything
// (cancel a task, wake a line reader). Subscribers nest: the REPL subscribes for its whole life,
// reading a line subscribes to drop the line, a running statement to cancel its task, a pager to
// let the key go to the pager alone; a script subscribes to cancel the running statement and, on
// a second Ctrl-C, to exit with 130. With no subscriber (before the REPL or a script has started,
// reading stdin included) Ctrl-C ends the process at once with 130.
//
// SIGTERM and SIGHUP (`kill`, `timeout`, a service stopped, the terminal closed) go through the same
// pipe: the running statement, if any, is cancelled as by Ctrl-C and so stops as Ctrl-C stops it (a
// download names what it completed in its manifest and prints its summary), then oceq leaves with
// 128 + the signal (`terminationSignal`, which `OceqCLI` turns into the exit code). With no statement
// running, or on a second such signal, oceq leaves at once. Their default action had ended a
// download between naming its files and recording them, and the next run, finding files its
// manifest did not list, named its own copies `(2)`.

import Dispatch
import FoundationEssentials
import OCEQCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The write end of the pipe the SIGINT handler writes to (-1 until `Interrupts.install()`).
private let signalPipeWriter = Atomic<Int32>(-1)

/// The process's one handler of SIGINT, SIGTERM and SIGHUP: the signal's number, one byte, to the
/// pipe; async-signal-safe.
private func interruptSignalHandler(_ signal: Int32) {
    let fd = signalPipeWriter.load(ordering: .relaxed)
    guard fd >= 0 else { return }
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(fd, &byte, 1)
}

/// SIGTERM or SIGHUP once one was received (0 until then).
private let receivedTermination = Atomic<Int32>(0)

/// The one SIGINT source and its subscribers.
package enum Interrupts {
    private struct State {
        var subscribers: [(id: Int, stopsWork: Bool, handler: @Sendable () -> Void)] = []
        var nextID = 0
        var installed = false
    }
    private static let state = Locked(State())
    /// The source that reads the pipe, kept for the life of the process (written once, by the
    /// first `install()`, which `state.installed` lets through alone).
    nonisolated(unsafe) private static var listener: (any DispatchSourceRead)?

    /// A subscription to Ctrl-C; `cancel()` ends it (the next one out hears Ctrl-C again).
    package struct Subscription: Sendable {
        let id: Int

        /// Stops hearing Ctrl-C.
        package func cancel() {
            Interrupts.state.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
    }

    /// Installs the SIGINT handler and the source that tells the subscribers; once per
    /// process, later calls do nothing. From then on Ctrl-C without a subscriber exits with 130.
    package static func install() {
        let first = state.withLock { state in
            defer { state.installed = true }
            return !state.installed
        }
        guard first else { return }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            // The handler must never block, nor the source's read once the pipe is empty.
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        signalPipeWriter.store(fds[1], ordering: .relaxed)
        // A parent may have blocked SIGINT (Foundation's Process blocks nearly every signal in its
        // children): the installing thread (the main one, in practice) lets it in, and so do the
        // threads started after it, so it is delivered at least there.
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in handled { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        // The pipe is watched by libdispatch's event thread, which runs anyway: no thread of our
        // own waits on it (one thread fewer to start in every run; `oceq -c` is measured in them).
        let reader = fds[0]
        let source = DispatchSource.makeReadSource(fileDescriptor: reader, queue: .global())
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 16)
            while true {
                let count = read(reader, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                for byte in buffer[0..<count] { Interrupts.deliver(Int32(byte)) }
            }
        }
        source.activate()
        listener = source
        var action = sigaction()
        action.__sigaction_handler.sa_handler = interruptSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signal in handled { sigaction(signal, &action, nil) }
    }

    /// The signals the pipe carries.
    private static let handled = [SIGINT, SIGTERM, SIGHUP]

    /// SIGTERM or SIGHUP when one asked oceq to stop (the process then exits with 128 + it), else nil.
    package static var terminationSignal: Int32? {
        let signal = receivedTermination.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// Makes `handler` the one that hears Ctrl-C until the subscription is cancelled (or a later
    /// subscription takes over, until that one is cancelled). Installs the source if needed.
    /// `stopsWork`: the handler stops running work (a statement, a script), which SIGTERM and SIGHUP
    /// stop too; other subscribers (a line being read, a pager) hear Ctrl-C alone.
    package static func subscribe(
        stopsWork: Bool = false, _ handler: @escaping @Sendable () -> Void
    ) -> Subscription {
        install()
        return state.withLock { state in
            state.nextID += 1
            state.subscribers.append((state.nextID, stopsWork, handler))
            return Subscription(id: state.nextID)
        }
    }

    /// Tells the innermost subscriber of one Ctrl-C (`signal` SIGINT), or exits with 130 when there
    /// is none. SIGTERM or SIGHUP stops the innermost running work, once; with none, or the second
    /// time, the process exits at once with 128 + the signal.
    static func deliver(_ signal: Int32 = SIGINT) {
        guard signal == SIGINT else {
            let (first, _) = receivedTermination.compareExchange(
                expected: 0, desired: signal, ordering: .relaxed)
            guard first, let stop = state.withLock({ $0.subscribers.last(where: \.stopsWork)?.handler }) else {
                _exit(128 + signal)
            }
            stop()
            return
        }
        guard let handler = state.withLock({ $0.subscribers.last?.handler }) else { _exit(130) }
        handler()
    }
}
