// Reading ahead of the item parsers when the export is not in the page cache.
//
// The parsers run on one thread per core and each reads one file at a time, so a cold export is
// read with two requests in flight on a two-core machine: 58 s for a million items here, against
// 11 s when the files are cached. This thread watches how fast the parsers finish their chunks;
// when that is slower than a cached export would be, it asks the kernel to read the next files
// (`posix_fadvise` WILLNEED, which queues the reads and returns), at most `window` files ahead of
// the parsers. Once on it stays on. With a cached export it only samples the count, so it costs
// nothing there. Hints only: a file it cannot open is left to the parser, which reports it.

import Dispatch
import FoundationEssentials
import Glibc
import OCEQCore

/// Reads item files ahead of the parsers of `ExportLoader.parseAll` while they run slowly.
final class ItemReadAhead: Sendable {
    /// Exports with fewer item files are read without (the thread would only add its start and
    /// the wait for it to stop).
    static let minimumJobs = 4 * window
    /// Files hinted ahead of the parsers at most.
    static let window = 4096
    /// Parsed files per second below which the export is taken as not cached (a cached export
    /// parses at about 90 000 per second on two cores here, an uncached one at 17 000).
    static let coldRate = 40_000.0
    /// How often the parsers' progress is sampled.
    static let interval = 0.05

    private let jobs: [ItemJob]
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var parsed = 0
        var done = false
    }

    /// Starts the thread for `jobs` (in the order the parsers take them).
    init(jobs: [ItemJob]) {
        self.jobs = jobs
        DetachedThread.start(name: "oceq-read-ahead") { [self] in
            run()
            finished.signal()
        }
    }

    /// Counts `count` more files parsed (called by the parsers after each chunk).
    func parsed(_ count: Int) { state.withLock { $0.parsed += count } }

    /// Stops the thread and waits for it (once, after the parsers are done).
    func finish() {
        state.withLock { $0.done = true }
        finished.wait()
    }

    private func run() {
        var next = 0
        var cold = false
        var (lastCount, lastTime) = (0, DispatchTime.now().uptimeNanoseconds)
        while true {
            let (parsed, done) = state.withLock { ($0.parsed, $0.done) }
            if done || next >= jobs.count { return }
            if !cold {
                let now = DispatchTime.now().uptimeNanoseconds
                let seconds = Double(now - lastTime) / 1e9
                if seconds >= Self.interval {
                    cold = Double(parsed - lastCount) / seconds < Self.coldRate
                    (lastCount, lastTime) = (parsed, now)
                }
            }
            guard cold else {
                usleep(UInt32(Self.interval * 1e6 / 5))
                continue
            }
            next = max(next, parsed)
            let end = min(jobs.count, parsed + Self.window)
            if next >= end {
                usleep(1000)
                continue
            }
            for index in next..<end { Self.hint(jobs[index].path) }
            next = end
        }
    }

    /// Asks the kernel to read a file into the page cache, without waiting for it.
    private static func hint(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
        guard fd >= 0 else { return }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED)
        close(fd)
    }
}
