import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

/// Not a test of speed (benchmarks are not tests): with `OCEQ_EXPORT_TIMING=<export path>` it loads
/// that export, shapes every item once and prints how long each step took. Skipped otherwise.
@Test(
    "load and shape timing of a large export (OCEQ_EXPORT_TIMING)",
    .enabled(if: ProcessInfo.processInfo.environment["OCEQ_EXPORT_TIMING"] != nil))
func exportLoadTiming() throws {
    let path = try #require(ProcessInfo.processInfo.environment["OCEQ_EXPORT_TIMING"])
    let cache = try TemporaryFolder()
    defer { cache.remove() }
    let clock = ContinuousClock()
    var content = ChannelContent()
    let cpuBefore = processCPUSeconds()
    let load = try clock.measure { content = try loadExport([path], cache: cache) }
    let loadCPU = processCPUSeconds() - cpuBefore
    var shaper: DeliveryShaper?
    let prepare = clock.measure { shaper = DeliveryShaper(content: content) }
    var bytes = 0
    let context = LinkContext(baseURL: "http://127.0.0.1:8411", channelToken: "token")
    let shape = try clock.measure {
        for item in content.items {
            bytes += JSONWriter().bytes(try shaper!.full(item, context: context, expand: .none)).count
        }
    }
    print(
        "export timing: \(content.items.count) items, \(content.issues.count) issues; load \(load) "
            + "(CPU \(loadCPU) s on all threads), "
            + "shaper init \(prepare), full()+write of every item \(shape) (\(bytes) bytes)")
    #expect(!content.items.isEmpty)
}

/// CPU seconds used by the process so far (all threads).
private func processCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
