// Ctrl-C. In a script, SIGINT ends the process at once with 130. In the REPL it only sets a flag
// (no SA_RESTART, so a blocked `read` returns EINTR): the reader drops the half-typed line, and a
// running command's task is cancelled.

import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The SIGINT flag and its handlers.
public enum Interrupts {
    /// Set by the REPL's SIGINT handler.
    static let flag = Atomic<Bool>(false)

    /// True once since the last `clear()`.
    public static var isSet: Bool { flag.load(ordering: .relaxed) }

    /// Forgets an interrupt.
    public static func clear() { flag.store(false, ordering: .relaxed) }

    /// Scripts: Ctrl-C exits with 130.
    public static func exitOnInterrupt() {
        install { _ in _exit(130) }
    }

    /// The REPL: Ctrl-C sets the flag and interrupts blocking reads.
    public static func flagOnInterrupt() {
        install { _ in Interrupts.flag.store(true, ordering: .relaxed) }
    }

    static func install(_ handler: @escaping @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }
}
