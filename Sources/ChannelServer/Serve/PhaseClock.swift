import Dispatch
import Glibc

/// Times the phases of loading and index building, printed to stderr when `OCEQ_SERVE_TIMING` is
/// set (for profiling large exports; silent otherwise). Each phase shows its wall-clock time, the
/// CPU time of the thread that marks it (the index is built on two threads; a clock is marked on
/// the thread that made it) and that of the whole process (all threads, SQLite's sorters too): a
/// phase whose process CPU falls well short of twice its time left a core idle.
struct PhaseClock {
    private static let enabled = getenv("OCEQ_SERVE_TIMING") != nil
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = Self.cpuNanoseconds(CLOCK_THREAD_CPUTIME_ID)
    private var lastProcessCPU = Self.cpuNanoseconds(CLOCK_PROCESS_CPUTIME_ID)
    private let label: String

    init(_ label: String) { self.label = label }

    /// Prints the time since the previous mark under `phase`.
    mutating func mark(_ phase: String) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.cpuNanoseconds(CLOCK_THREAD_CPUTIME_ID)
        let processCPU = Self.cpuNanoseconds(CLOCK_PROCESS_CPUTIME_ID)
        let seconds = Double(now - last) / 1e9
        let cpuSeconds = Double(cpu &- lastCPU) / 1e9
        let processSeconds = Double(processCPU &- lastProcessCPU) / 1e9
        (last, lastCPU, lastProcessCPU) = (now, cpu, processCPU)
        let line = Array(
            ("oceq serve: \(label) \(phase) \((seconds * 1000).rounded() / 1000)s (thread cpu "
                + "\((cpuSeconds * 100).rounded() / 100)s, process cpu \((processSeconds * 100).rounded() / 100)s)\n")
                .utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func cpuNanoseconds(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
