// A server that drips a native file slowly must not hold a download forever (issue 20, point 10):
// libcurl's low-speed limit (fewer than 1024 bytes in 30 seconds by default) ends the transfer
// with an error naming the file. The test lowers only the time, to one second.

import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQShell
import Testing

@Suite("download: the low-speed limit")
struct LowSpeedTests {
    @Test("by default a transfer slower than 1024 bytes over 30 seconds is aborted")
    func defaults() {
        let options = CurlTransport.Options()
        #expect(options.lowSpeedLimit == 1024)
        #expect(options.lowSpeedTime == 30)
    }

    @Test("a native dripped at 100 bytes a second ends at the limit, and the failure names the file")
    @MainActor
    func drip() async throws {
        let export = try SyntheticExport(count: 1)
        defer { export.remove() }
        let file = export.files[0]
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Without the limit of 1024 bytes/s (it was 1 byte/s), the file arrives whole after seconds.
        let server = try DownloadServer(export: export.path, faults: "stall:bps=100")
        var options = CurlTransport.Options()
        options.lowSpeedTime = 1
        let (session, output, _) = try server.session(retry: .none, transport: options)
        session.arguments = [folder]
        let code = await ScriptRunner.run(text: "download (list type=File) to $1", fileName: nil, in: session)
        #expect(code == 1)
        #expect(output.text.contains("(\(file.id)): timed out for http://127.0.0.1:"), "\(output.text)")
        #expect(output.text.contains("failed: "))
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + file.name))
    }
}
