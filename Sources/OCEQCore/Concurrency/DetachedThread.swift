// A detached POSIX thread running a closure: what Foundation's `Thread` did for the targets oceq links,
// which use FoundationEssentials only (full Foundation and CoreFoundation cost every start of the program
// about 0.85 ms of CPU and 165 page faults; README "Start-up").

import Glibc

/// Starts threads of their own, outside Swift's cooperative pool and Dispatch's workers.
package enum DetachedThread {
    /// Runs `body` on a new detached thread named `name` (Linux keeps the first 15 bytes), with a stack of
    /// `stackSize` bytes (nil: the system's default). A thread that cannot be started stops the program, as
    /// Foundation's `Thread.start()` did: every caller needs its thread to make progress.
    /// `configure`, when given, adjusts the thread's attributes before it is created (where it may run).
    package static func start(
        name: String? = nil, stackSize: Int? = nil, configure: ((inout pthread_attr_t) -> Void)? = nil,
        _ body: @escaping @Sendable () -> Void
    ) {
        final class Start: @unchecked Sendable {
            let name: String?
            let body: @Sendable () -> Void
            init(name: String?, body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        configure?(&attributes)
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, &attributes,
            { context in
                let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                if let name = start.name { DetachedThread.nameCurrentThread(name) }
                start.body()
                return nil
            }, context)
        if status != 0 {
            Unmanaged<Start>.fromOpaque(context).release()
            fatalError("cannot start a thread\(name.map { " (\($0))" } ?? ""): error \(status)")
        }
    }

    /// Names the calling thread as `ps -L` and debuggers show it: the first 15 bytes of `name`, cut at a
    /// character boundary, written to the thread's `comm` (what glibc's `pthread_setname_np` does, which
    /// the Glibc module does not declare).
    package static func nameCurrentThread(_ name: String) {
        var cut = Substring(name)
        while cut.utf8.count > 15 { cut.removeLast() }
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(cut.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
