import Dispatch
import Glibc

/// Times the phases of loading and index building, printed to stderr when `OCEQ_SERVE_TIMING` is
/// set (for profiling large exports; silent otherwise).
struct PhaseClock {
    private static let enabled = getenv("OCEQ_SERVE_TIMING") != nil
    private var last = DispatchTime.now().uptimeNanoseconds
    private let label: String

    init(_ label: String) { self.label = label }

    /// Prints the time since the previous mark under `phase`.
    mutating func mark(_ phase: String) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let seconds = Double(now - last) / 1e9
        last = now
        let line = Array("oceq serve: \(label) \(phase) \((seconds * 1000).rounded() / 1000)s\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
