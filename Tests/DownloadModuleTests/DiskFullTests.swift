import Foundation
import OCEQTestSupport
import Testing

/// A disk that fills up mid-way, simulated honestly: the built `oceq` binary runs under a file-size
/// limit (`ulimit -f` in /bin/sh, with SIGXFSZ ignored so an oversized `write` fails with EFBIG
/// instead of killing the process). Files under the limit complete; the others must fail cleanly.
@Suite("download: a disk that fills up")
struct DiskFullTests {
    @Test(
        "files that do not fit fail, are removed, are named in the summary and are not in the manifest",
        .disabled(
            if: Sanitizer.isThread,
            "a ThreadSanitizer build of oceq dies of SIGBUS at start under a small ulimit -f (even --version)"))
    func fileSizeLimit() async throws {
        let server = try DownloadServer()
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 96 blocks: 48 KiB in dash's 512-byte blocks (96 KiB were /bin/sh bash): either way some
        // of the sample's images (20 KB to 170 KB) fit and some do not.
        let result = try await OceqBinary.run(
            after: "ulimit -f 96 && trap '' XFSZ",
            [
                "--url", server.origin, "--token", DownloadServer.token, "-c",
                "download (list type=Image order name limit 12) to \(folder)",
            ])
        #expect(result.code == 1, "\(result.stdout)\(result.stderr)")
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("failed: ") }
        #expect(!failures.isEmpty, "\(result.stdout)")
        for line in failures {
            #expect(line.contains("out of space (File too large); the partial file was removed"), "\(line)")
        }
        let entries = try manifestFiles(folder)
        #expect(!entries.isEmpty, "some files fit")
        #expect(entries.count + failures.count == 12)
        let listed = Set(entries.compactMap { $0["file"]?.stringValue })
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            #expect(fileBytes(folder + "/" + name)?.count == entry["size"]?.intValue, "\(name) is whole")
        }
        // Only the listed files and the manifest: no failed file under its name, no part left.
        #expect(Set(folderEntries(folder)) == listed.union([".oceq-manifest.json"]))
        for line in failures {
            let name = String(line.dropFirst("failed: ".count).prefix { $0 != " " })
            #expect(!FileManager.default.fileExists(atPath: folder + "/" + name))
            #expect(!FileManager.default.fileExists(atPath: folder + "/" + name + ".part"))
        }
    }
}
