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
    /// The line written to stderr when running work was stopped: `interrupted` (Ctrl-C), or
    /// `terminated (SIGTERM)` / `terminated (SIGHUP)`.
    package static var stopReport: String {
        switch terminationSignal {
        case SIGTERM?: return "terminated (SIGTERM)\n"
        case SIGHUP?: return "terminated (SIGHUP)\n"
        default: return "interrupted\n"
        }
    }

    /// What a second Ctrl-C does while the work is still stopping.
    enum Repeat {
        /// Cancel again (nothing more happens): the REPL.
        case cancel
        /// Exit at once with 130: a script, whose user may not want to wait for it to stop.
        case exit
    }

    /// Runs `work` in a task of its own on the main actor (where the shell's commands run, so the task starts
    /// without a hop through the pool) that Ctrl-C (or the calling task's cancellation) cancels,
    /// and returns its result once it has ended, with whether Ctrl-C cancelled it. With a `status`
    /// line, a spinner is drawn there while the work takes longer than about 300 ms, and cleared after;
    /// a progress line the work draws on the same status line replaces it while it runs.
    @MainActor
    static func cancelling<T: Sendable>(
        status: StatusLine? = nil, again: Repeat = .cancel, _ work: @escaping @Sendable @MainActor () async -> T
    ) async -> (value: T, interrupted: Bool) {
        // The spinner's activity begins before the work can begin one of its own, so that it is the outer one.
        let spinner = status.flatMap { $0.isTerminal ? $0.begin() : nil }
        let task = Task { await work() }
        let interrupted = Locked(false)
        let subscription = Interrupts.subscribe(stopsWork: true) {
            if interrupted.testAndSet() && again == .exit { _exit(130) }
            task.cancel()
        }
        defer { subscription.cancel() }
        var drawing: Task<Void, Never>?
        if let status, let spinner {
            drawing = Task { @MainActor in
                let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
                guard (try? await Task.sleep(for: .milliseconds(300))) != nil else { return }
                for tick in 0... {
                    status.update(spinner, frames[tick % frames.count] + " waiting for the channel (Ctrl-C stops)")
                    guard (try? await Task.sleep(for: .milliseconds(100))) != nil else { return }
                }
            }
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        drawing?.cancel()
        await drawing?.value
        if let spinner { status?.end(spinner) }
        return (result, interrupted.withLock { $0 })
    }
}
