// `oceq serve`'s limit flags: they reach the options, and `--help` states every default.

import ChannelServer
import OCEQApp
import OCEQCore
import Testing

@Suite("oceq serve, the limit flags")
struct ServeLimitOptionsTests {
    @Test("each limit flag sets its option; out-of-range values are usage errors")
    func flags() throws {
        let options = try ServeOptions.parse([
            "x", "--max-connections", "500", "--max-connections-per-client", "20", "--header-timeout", "3",
            "--zip-max-mib", "100", "--zip-max-entries", "5000", "--zip-max-ratio", "40", "--item-max-mib", "2",
            "--max-image-pixels", "1000000", "--render-threads", "3",
        ])
        #expect(options.connections.maximumConnections == 500)
        #expect(options.connections.maximumConnectionsPerClient == 20)
        #expect(options.connections.headerTimeout == 3)
        #expect(options.zipLimits.maximumExpandedBytes == 100 << 20)
        #expect(options.zipLimits.maximumEntries == 5000)
        #expect(options.zipLimits.maximumRatio == 40)
        #expect(options.maximumItemFileBytes == 2 << 20)
        #expect(options.maximumImagePixels == 1_000_000)
        #expect(options.renderThreads == 3)
        #expect(throws: UsageError.self) { try ServeOptions.parse(["x", "--header-timeout", "0"]) }
        #expect(throws: UsageError.self) { try ServeOptions.parse(["x", "--zip-max-ratio", "many"]) }
    }

    @Test("--help names every limit flag with its default")
    func help() {
        for (flag, value) in [
            ("--max-connections N", "4096"), ("--max-connections-per-client N", "128"),
            ("--header-timeout SECONDS", "10"), ("--zip-max-mib N", "8192"), ("--zip-max-entries N", "100000"),
            ("--zip-max-ratio N", "200"), ("--item-max-mib N", "64"), ("--max-image-pixels N", "100000000"),
            ("--render-threads N", "2"),
        ] {
            let lines = ServeOptions.usage.split(separator: "\n").map(String.init)
            let at = lines.firstIndex { $0.contains(flag) } ?? 0
            let line = lines[at] + (lines[at].hasSuffix(flag) ? lines[at + 1] : "")
            #expect(line.contains("(default \(value)"), "\(flag): \(line)")
        }
        let defaults = ServeOptions()
        #expect(defaults.connections.maximumConnections == 4096)
        #expect(defaults.connections.maximumConnectionsPerClient == 128)
        #expect(defaults.connections.headerTimeout == 10)
        #expect(defaults.zipLimits.maximumExpandedBytes == 8192 << 20)
        #expect(defaults.zipLimits.maximumEntries == 100_000)
        #expect(defaults.zipLimits.maximumRatio == 200)
        #expect(defaults.maximumItemFileBytes == 64 << 20)
        #expect(defaults.maximumImagePixels == 100_000_000)
        #expect(defaults.renderThreads == 2)
    }
}
