// Ctrl-C as task cancellation: the REPL runs each statement, and `oceq FILE` / `-c` the whole
// script, in a task that a Ctrl-C subscriber cancels. A cancelled command stops its requests, keeps
// what it completed (a download saves its manifest and prints its summary) and returns; the caller
// then reports the interrupt. Nothing polls: the subscriber is told by the one SIGINT source.

import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Running work that Ctrl-C cancels.
extension Interrupts {
    /// What a second Ctrl-C does while the work is still stopping.
    enum Repeat {
        /// Cancel again (nothing more happens): the REPL.
        case cancel
        /// Exit at once with 130: a script, whose user may not want to wait for it to stop.
        case exit
    }

    /// Runs `work` in a task of its own that Ctrl-C (or the calling task's cancellation) cancels,
    /// and returns its result once it has ended, with whether Ctrl-C cancelled it. With a `spinner`
    /// sink, a spinner is drawn there while the work takes longer than about 300 ms, and cleared after.
    @MainActor
    static func cancelling<T: Sendable>(
        spinner: (any OutputSink)? = nil, again: Repeat = .cancel, _ work: @escaping @Sendable () async -> T
    ) async -> (value: T, interrupted: Bool) {
        let task = Task { await work() }
        let interrupted = Locked(false)
        let subscription = Interrupts.subscribe {
            let before = interrupted.withLock { seen in
                defer { seen = true }
                return seen
            }
            if before && again == .exit { _exit(130) }
            task.cancel()
        }
        defer { subscription.cancel() }
        var drawing: Task<Void, Never>?
        if spinner != nil {
            drawing = Task { @MainActor in
                guard let sink = spinner else { return }
                let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
                var drawn = false
                do {
                    try await Task.sleep(for: .milliseconds(300))
                    for tick in 0... {
                        sink.write("\r" + frames[tick % frames.count] + " waiting for the channel (Ctrl-C stops)")
                        drawn = true
                        try await Task.sleep(for: .milliseconds(100))
                    }
                } catch {}
                if drawn { sink.write("\r\u{1B}[K") }
            }
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        drawing?.cancel()
        await drawing?.value
        return (result, interrupted.withLock { $0 })
    }
}
