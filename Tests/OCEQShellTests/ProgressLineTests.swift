// The progress line `download` and `mirror` share, on an in-memory sink. Redraw throttling is
// checked with an interval no test run reaches (an hour) or none at all, never with wall-clock time.

import Foundation
import Testing

@testable import OCEQShell

@Suite("The progress line of download and mirror")
struct ProgressLineTests {
    static let clear = "\r\u{1B}[K"

    @Test("a phase is drawn after the label; a redraw within the interval is skipped unless forced")
    func throttled() {
        let sink = MemoryOutput(isTerminal: true)
        let line = ProgressLine(label: "mirror", sink: sink, interval: .seconds(3600))
        line.show("items 1/146")
        line.show("items 2/146")
        #expect(sink.text == Self.clear + "mirror: items 1/146")
        line.show("variation sets", force: true)
        #expect(sink.text == Self.clear + "mirror: items 1/146" + Self.clear + "mirror: variation sets")
    }

    @Test("a batch's counts only grow: a late report from another thread does not move them back")
    func monotonic() {
        let sink = MemoryOutput(isTerminal: true)
        let line = ProgressLine(label: "download", sink: sink, interval: .zero)
        line.transfer(done: 5, of: 10, bytes: 500, expectedBytes: 2048)
        sink.clear()
        line.transfer(done: 3, of: 10, bytes: 200, expectedBytes: 2048)
        #expect(sink.text.hasPrefix(Self.clear + "download: 5/10 files, 500 B of 2.0 KB"), "\(sink.text)")
    }

    @Test("a note goes above the line, which is drawn again under it; finish clears it once")
    func notesAndFinish() {
        let sink = MemoryOutput(isTerminal: true)
        let line = ProgressLine(label: "download", sink: sink, interval: .zero)
        line.note("before any line")
        #expect(sink.text == "before any line\n")
        sink.clear()
        line.transfer(done: 0, of: 2, bytes: 0, force: true)
        line.note("failed: a.bin (CONT1): HTTP 503")
        #expect(
            sink.text
                == Self.clear + "download: 0/2 files, 0 B" + Self.clear + "failed: a.bin (CONT1): HTTP 503\n"
                + Self.clear + "download: 0/2 files, 0 B")
        sink.clear()
        line.finish()
        line.finish()
        #expect(sink.text == Self.clear)
    }

    @Test(
        "a batch's text: the rate after half a second, the time left when the total is known",
        arguments: [
            (3, 10, Int64(0), Int64?.none, Duration.seconds(5), "3/10 files, 0 B")
                as (Int, Int, Int64, Int64?, Duration, String),
            (3, 10, 4096, nil, .milliseconds(400), "3/10 files, 4.0 KB"),
            (3, 10, 4096, nil, .seconds(2), "3/10 files, 4.0 KB, 2.0 KB/s"),
            (3, 10, 4096, 10240, .seconds(2), "3/10 files, 4.0 KB of 10.0 KB, 2.0 KB/s, 3s left"),
            (10, 10, 10240, 10240, .seconds(2), "10/10 files, 10.0 KB of 10.0 KB, 5.0 KB/s"),
        ])
    func batchText(done: Int, files: Int, bytes: Int64, expected: Int64?, elapsed: Duration, text: String) {
        #expect(
            ProgressLine.batchText(done: done, files: files, bytes: bytes, expectedBytes: expected, elapsed: elapsed)
                == text)
    }

    @Test("a progress line inside the spinner owns the status line until it finishes; the spinner shows again after")
    func insideSpinner() {
        let sink = MemoryOutput(isTerminal: true)
        let status = StatusLine(sink: sink)
        let spinner = status.begin()
        status.update(spinner, "⠋ waiting")
        let progress = ProgressLine(label: "download", sink: StatusLineGuard(sink, statusLine: status), interval: .zero)
        progress.transfer(done: 0, of: 2, bytes: 0, force: true)
        status.update(spinner, "⠙ waiting")
        progress.transfer(done: 1, of: 2, bytes: 10)
        status.update(spinner, "⠹ waiting")
        #expect(
            sink.text
                == Self.clear + "⠋ waiting" + Self.clear + "download: 0/2 files, 0 B" + Self.clear
                + "download: 1/2 files, 10 B", "spinner ticks are kept, not drawn, while the download runs")
        sink.clear()
        progress.finish()
        #expect(sink.text == Self.clear)
        status.update(spinner, "⠸ waiting")
        #expect(sink.text == Self.clear + Self.clear + "⠸ waiting")
        sink.clear()
        status.end(spinner)
        #expect(sink.text == Self.clear)
    }

    @Test("other output clears the status line first, and a whole line is followed by the line again")
    func otherOutput() {
        let sink = MemoryOutput(isTerminal: true, width: 12)
        let status = StatusLine(sink: sink)
        let output = StatusLineGuard(sink, statusLine: status)
        output.write("before\n")
        let activity = status.begin()
        status.update(activity, "a line far too wide for twelve columns")
        #expect(sink.text == "before\n" + Self.clear + "a line far…", "cut to the width less one")
        sink.clear()
        output.write("row 1\n")
        output.write("partial")
        #expect(sink.text == Self.clear + "row 1\n" + Self.clear + "a line far…" + Self.clear + "partial")
        sink.clear()
        status.end(activity)
        #expect(sink.text.isEmpty, "the line was not shown any more")
    }

    static let kibibyte: Int64 = 1024
    static let byteCounts: [(Int64, String)] = [
        (0, "0 B"), (1023, "1023 B"), (kibibyte, "1.0 KB"), (1536, "1.5 KB"), (6_606_028, "6.3 MB"),
        (3 * kibibyte * kibibyte * kibibyte, "3.0 GB"), (5 * kibibyte * kibibyte * kibibyte * kibibyte, "5.0 TB"),
        (2048 * kibibyte * kibibyte * kibibyte * kibibyte, "2048.0 TB"),
    ]

    @Test("byte counts read the same in every command", arguments: byteCounts)
    func bytes(count: Int64, text: String) {
        #expect(ByteCount.text(count) == text)
    }

    @Test("byte counts print one decimal exactly as String(format: \"%.1f\") does, ties included")
    func byteCountsMatchFormat() {
        var counts: [Int64] = [
            1023, 1024, 1075, 1076, 1126, 1127, 1_572_864, 1_048_575, 1_048_576, 1 << 40, (1 << 50) - 1,
        ]
        // Ties: x.x5 KB exactly (1024 * 0.05 = 51.2 is no integer, but 1024 * 0.25 = 256 is).
        for whole in Int64(1)...40 {
            counts += [whole * 1024 + 256, whole * 1024 + 768, whole * 1024 + 51, whole * 1024 + 52]
        }
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            counts.append(Int64(seed >> 14))
        }
        for count in counts {
            var value = Double(count) / 1024
            var unit = "KB"
            for next in ["MB", "GB", "TB"] where value >= 1024 {
                value /= 1024
                unit = next
            }
            let expected = count < 1024 ? "\(count) B" : String(format: "%.1f", value) + " " + unit
            #expect(ByteCount.text(count) == expected, "\(count)")
        }
    }
}
