import DeliveryKit
@_spi(Testing) import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// A job `containedIn` a folder writes nothing outside it, whatever links are planted on its way.
@Suite("Downloads contained in a folder")
struct ContainedDownloadTests {
    @Test("a folder on the job's way that is a link out of the containing folder fails the job")
    func linkedFolderFails() async throws {
        let root = temporaryFolder()
        let outside = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createDirectory(atPath: root + "/files", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/files/ID", withDestinationPath: outside)
        let client = try makeClient(DownloadTests.server(), bearer: nil)
        var job = DownloadJob(DeliveryAPI.downloadNative(id: "CONT1"), folder: root + "/files/ID", name: "a.jpg")
        job.containedIn = root
        await #expect(throws: DeliveryError.self) { try await client.download(job) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty, "nothing written outside")

        // The same job with a real folder there downloads.
        try FileManager.default.removeItem(atPath: root + "/files/ID")
        let result = try await client.download(job)
        #expect(readFile(result.path) == DownloadTests.file)
    }
}
