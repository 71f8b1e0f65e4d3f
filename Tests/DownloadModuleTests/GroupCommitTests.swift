import DeliveryKit
@_spi(Testing) import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// `download` with the pool's group commit in small batches, looked at from inside each commit:
/// the folder and the manifest at that moment are what a crash there would leave.
@Suite("download: group commit leaves a consistent folder at every batch", .serialized)
struct GroupCommitTests {
    @Test("at each batch's start, its files are parts and the manifest lists only files already renamed")
    func crashPoints() async throws {
        let export = try SyntheticExport(count: 30)
        defer { export.remove() }
        let server = try DownloadServer(export: export.path)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let published = Locked<Set<String>>([])
        let problems = Locked<[String]>([])
        let snapshots = Locked((batches: 0, manifests: 0))
        let observer: @Sendable (DownloadCommitStep) -> Void = { step in
            switch step {
            case .published(let path):
                _ = published.withLock { $0.insert((path as NSString).lastPathComponent) }
            case .batch(let paths):
                let done = published.withLock { $0 }
                var notes: [String] = []
                for path in paths {
                    let name = (path as NSString).lastPathComponent
                    // Its part has no name yet (it arrived whole: `FileIO.openNamelessPart`) or is `.part`.
                    if FileManager.default.fileExists(atPath: path) { notes.append("\(name) has its final name") }
                }
                for name in folderEntries(folder)
                where isFinalFile(name) && !done.contains(name) {
                    notes.append("\(name) is there before its batch renamed it")
                }
                // Read here without `manifestFiles`, which records an issue while there is none yet.
                let saved = fileBytes(folder + "/.oceq-manifest.json").flatMap { try? JSON.parse($0) }
                let listed = saved?["files"]?.arrayValue ?? []
                for entry in listed {
                    let name = entry["file"]?.stringValue ?? "?"
                    if !done.contains(name) { notes.append("the manifest lists \(name) before its rename") }
                    let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int
                    if size != entry["size"]?.intValue { notes.append("the manifest's \(name) is not on disk whole") }
                }
                problems.withLock { $0 += notes }
                snapshots.withLock {
                    $0.batches += 1
                    if !listed.isEmpty { $0.manifests += 1 }
                }
                // Long enough for the batch's manifest saves (at most twice a second) to happen between batches.
                Thread.sleep(forTimeInterval: 0.15)
            case .synced, .folderSynced, .fileSystemFlushed:
                break
            }
        }
        let policy = DownloadCommitPolicy(maxFiles: 4, maxDelay: .seconds(3600))
        let run = try await DownloadCommit.$policy.withValue(policy) {
            try await DownloadCommit.$observer.withValue(observer) {
                try await server.run("download (list type=File) to $1 --concurrency 4", arguments: [folder])
            }
        }
        #expect(run.code == 0, "\(run.output)\(run.errors)")
        #expect(problems.withLock { $0 } == [])
        let seen = snapshots.withLock { $0 }
        #expect(seen.batches >= 8, "30 files in batches of at most 4")
        #expect(seen.manifests >= 1, "a manifest saved during the run was checked")
        try BulkDownloadTests().verify(folder, export, "grouped")
    }
}
