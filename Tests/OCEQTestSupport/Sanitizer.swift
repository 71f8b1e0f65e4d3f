// Which sanitizer the suite runs under (`Scripts/sanitize asan|tsan` sets `OCEQ_SANITIZER`), for
// the few checks a sanitizer's own cost makes meaningless, such as a peak-memory ceiling: shadow
// memory multiplies a process's resident size (the hostile channel's 600 MiB ceiling saw 1.8 GiB
// under ThreadSanitizer).

import Foundation

/// The sanitizer the test binaries and `oceq` were built with, as `Scripts/sanitize` says.
public enum Sanitizer {
    /// `OCEQ_SANITIZER` (`asan`, `tsan`), or nil in a normal build.
    public static var active: String? {
        guard let name = ProcessInfo.processInfo.environment["OCEQ_SANITIZER"], !name.isEmpty else { return nil }
        return name
    }

    /// Whether the suite runs under ThreadSanitizer (`OCEQ_SANITIZER=tsan`).
    public static var isThread: Bool { active == "tsan" }

    /// Whether a memory ceiling can be checked; when not, says why on stderr, naming `check`.
    public static func memoryCeilingApplies(_ check: String) -> Bool {
        guard let active else { return true }
        FileHandle.standardError.write(
            Data("note: \(check): peak memory not checked under OCEQ_SANITIZER=\(active) (shadow memory)\n".utf8))
        return false
    }
}
