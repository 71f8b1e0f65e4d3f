// DeliveryKit's single download over the hostile channel (`HostileChannel`): every item name that
// is a path, holds NUL, is too long or is a dot segment is refused as a file name; the others
// (Windows device names, backslashes, a leading dash) are plain files on Linux and land inside
// the target folder. Nothing is written anywhere else, and no `.part` is left behind.

import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("End to end: downloads named by a hostile channel stay in their folder")
struct HostileDownloadTests {
    @Test("each hostile name is refused or written inside the target folder, nothing else")
    func hostileNames() async throws {
        let root = temporaryFolder()
        defer { removeFolder(root) }
        let channel = try HostileChannel.write(to: root + "/export", hugeBytes: 1024)
        let server = try await ServeProcess(export: channel.folder, arguments: ["--token", "hostile-token", "--quiet"])
        var configuration = try DeliveryConfiguration(url: server.origin, channelToken: "hostile-token")
        configuration.retry = .none
        let client = DeliveryClient(configuration: configuration, transport: CurlTransport(), clock: FakeClock())
        let target = root + "/target"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)

        var refused: [String] = []
        var written: [String] = []
        for (index, id) in channel.imageIDs.enumerated() {
            let name = HostileChannel.names[index]
            let job = DownloadJob(DeliveryAPI.downloadNative(id: id), folder: target, name: name)
            do {
                let result = try await client.download(job)
                #expect(result.path == target + "/" + name)
                let bytes = try #require(fileBytes(result.path))
                #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("native \(index) "))
                written.append(name)
            } catch let error as DeliveryError {
                guard case .invalidRequest(let reason) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(reason.hasPrefix("unsafe download name"))
                refused.append(name)
            }
        }
        let names = HostileChannel.names
        #expect(
            Set(refused) == [names[0], names[1], names[2], names[3], "..", ".", "~/home"], "refused \(refused)")
        #expect(Set(folderEntries(target)) == Set(written))
        #expect(!folderEntries(target).contains { $0.hasSuffix(".part") || $0.hasSuffix(".meta") })
        // Nothing appeared beside the target folder or the export.
        #expect(folderEntries(root) == ["export", "target"])
        #expect(!fileExists(root + "/etc") && !fileExists("/abs/olute"))
    }
}
