import Foundation
import OCEQTestSupport
import Testing

/// A low limit on open descriptors: every file between its transfer and its name holds one, so the pool
/// takes fewer files at a time instead of failing them with "Too many open files".
@Suite("download: a low limit on open descriptors")
struct DescriptorLimitTests {
    @Test("under ulimit -n 32 every image of the sample arrives, whole, and the folder holds nothing else")
    func lowDescriptorLimit() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Soft and hard limit alike, so the download cannot raise it.
        let result = try await OceqBinary.run(
            after: "ulimit -n 32",
            ["--url", server.origin, "--token", DownloadServer.token, "-c", "download (list type=Image) to \(folder)"])
        #expect(result.code == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("Too many open files"), "\(result.stdout)")
        let entries = try manifestFiles(folder)
        #expect(entries.count == 74, "the sample's 74 images")
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            #expect(fileBytes(folder + "/" + name)?.count == entry["size"]?.intValue, "\(name) is whole")
        }
        #expect(folderEntries(folder).count == 75, "the files and the manifest, no part left")
    }
}
