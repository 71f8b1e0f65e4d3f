// Ctrl-C. Until a script's statements or the REPL start, SIGINT ends the process at once with 130.
// In the REPL it only sets a flag (no SA_RESTART, so a blocked `read` returns EINTR): the reader
// drops the half-typed line, and a running command's task is cancelled. In a running script it
// sets the flag too, which cancels the running statement (see Interrupts+Cancel.swift); a second
// Ctrl-C before the script has stopped ends the process at once.

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
    /// The thread blocked in a line read (0 for none). The kernel delivers SIGINT to any thread
    /// that does not block it, so the handler forwards it there to make that `read` return EINTR.
    static let readerThread = Atomic<UInt>(0)

    /// Marks the calling thread as the one reading lines until `endRead(restoring:)`, and lets
    /// SIGINT reach it (Dispatch's worker threads block it); returns the mask to restore.
    static func beginRead() -> sigset_t {
        var only = sigset_t()
        var previous = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &only, &previous)
        readerThread.store(UInt(pthread_self()), ordering: .relaxed)
        return previous
    }

    /// No thread is reading lines; the thread's signal mask is put back.
    static func endRead(restoring mask: sigset_t) {
        readerThread.store(0, ordering: .relaxed)
        var mask = mask
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    /// True once since the last `clear()`.
    public static var isSet: Bool { flag.load(ordering: .relaxed) }

    /// Forgets an interrupt.
    public static func clear() { flag.store(false, ordering: .relaxed) }

    /// Scripts: Ctrl-C exits with 130.
    public static func exitOnInterrupt() {
        install { _ in _exit(130) }
    }

    /// A running script: the first Ctrl-C sets the flag; another one while it is set exits with 130.
    public static func cancelOnInterrupt() {
        install { _ in
            if Interrupts.flag.exchange(true, ordering: .relaxed) { _exit(130) }
        }
    }

    /// The REPL: Ctrl-C sets the flag and interrupts blocking reads.
    public static func flagOnInterrupt() {
        install { signal in
            Interrupts.flag.store(true, ordering: .relaxed)
            let reader = Interrupts.readerThread.load(ordering: .relaxed)
            if reader != 0 && reader != UInt(pthread_self()) { pthread_kill(pthread_t(reader), signal) }
        }
    }

    static func install(_ handler: @escaping @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }
}
