import Dispatch
import Glibc

/// Times the phases of loading and index building, printed to stderr when `OCEQ_SERVE_TIMING` is
/// set (for profiling large exports; silent otherwise). Each phase shows its wall-clock time and
/// the CPU time of the thread that marks it (the index is built on two threads; a clock is marked on
/// the thread that made it).
struct PhaseClock {
    private static let enabled = getenv("OCEQ_SERVE_TIMING") != nil
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = Self.threadCPUNanoseconds()
    private let label: String

    init(_ label: String) { self.label = label }

    /// Prints the time since the previous mark under `phase`.
    mutating func mark(_ phase: String) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.threadCPUNanoseconds()
        let seconds = Double(now - last) / 1e9
        let cpuSeconds = Double(cpu &- lastCPU) / 1e9
        (last, lastCPU) = (now, cpu)
        let line = Array(
            "oceq serve: \(label) \(phase) \((seconds * 1000).rounded() / 1000)s (thread cpu \((cpuSeconds * 100).rounded() / 100)s)\n"
                .utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
