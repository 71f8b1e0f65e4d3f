// Ctrl-C as task cancellation: the REPL runs each statement, and `oceq FILE` / `-c` the whole
// script, in a task that is cancelled when the SIGINT flag goes up. A cancelled command stops its
// requests, keeps what it completed (a download saves its manifest and prints its summary) and
// returns; the caller then reports the interrupt. The flag is polled every 50 ms, since a signal
// handler can do no more than set it.

/// Running work that Ctrl-C cancels.
extension Interrupts {
    /// Runs `work` in a task of its own that is cancelled when the SIGINT flag is set (or when the
    /// calling task is cancelled), and returns its result once it has ended. With a `spinner` sink,
    /// a spinner is drawn there while the work takes longer than about 300 ms, and cleared after.
    static func cancelling<T: Sendable>(
        spinner: (any OutputSink)? = nil, _ work: @escaping @Sendable () async -> T
    ) async -> T {
        // The sink is only written from the watcher below, which ends before this returns.
        nonisolated(unsafe) let spinner = spinner
        let task = Task { await work() }
        let watcher = Task {
            let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
            var ticks = 0
            var drawn = false
            while !Task.isCancelled {
                if Interrupts.isSet {
                    task.cancel()
                    break
                }
                if let spinner, ticks >= 6 && ticks % 2 == 0 {
                    spinner.write("\r" + frames[(ticks / 2) % frames.count] + " waiting for the channel (Ctrl-C stops)")
                    drawn = true
                }
                ticks += 1
                try? await Task.sleep(for: .milliseconds(50))
            }
            if drawn { spinner?.write("\r\u{1B}[K") }
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        watcher.cancel()
        await watcher.value
        return result
    }
}
