import DeliveryKit
import DownloadModule
import Foundation
import OCEQCore
import OCEQShell
import Testing

/// Interrupted files resume on the next run; progress is drawn only on a terminal.
@MainActor
@Suite("download: resuming and progress", .serialized)
struct ResumeAndProgressTests {
    @Test("files cut short with retries off stay as parts; the next run resumes them with ranges")
    func resume() async throws {
        let export = try SyntheticExport(count: 20)
        defer { export.remove() }
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let cutting = try DownloadServer(export: export.path, faults: "truncate:keep=100")
            let cut = try await cutting.run("download (list type=File) to $1", arguments: [folder], retry: .none)
            #expect(cut.code == 1)
            #expect(cut.output.contains("  failed      20 files\n"))
            #expect(cut.output.contains("body cut short"))
            let entries = folderEntries(folder)
            #expect(entries.allSatisfy { $0.hasSuffix(".part") || $0 == ".oceq-manifest.json" }, "\(entries)")
            #expect(entries.filter { $0.hasSuffix(".part") }.count == 20)
            #expect(try manifestFiles(folder).isEmpty)
        }
        let server = try DownloadServer(export: export.path)
        let resumed = try await server.run("download (list type=File) to $1", arguments: [folder])
        #expect(resumed.code == 0, "\(resumed.output)")
        #expect(resumed.output.contains("downloaded  20 files"))
        #expect(server.takeAssetStatuses() == Array(repeating: 206, count: 20), "every file resumed from its part")
        let entries = try manifestFiles(folder)
        #expect(entries.count == 20)
        let byId = Dictionary(uniqueKeysWithValues: export.files.map { ($0.id, $0.bytes) })
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            #expect(fileBytes(folder + "/" + name) == byId[entry["assetId"]?.stringValue ?? ""])
        }
        #expect(!folderEntries(folder).contains { $0.hasSuffix(".part") })
    }

    @Test("an interrupted batch counts its cancelled files, leaves no file under a final name and fails")
    func cancelled() async throws {
        let export = try SyntheticExport(count: 8)
        defer { export.remove() }
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try DownloadServer(export: export.path, faults: "stall:bps=100")
        let task = Task { try await server.run("download (list type=File) to $1", arguments: [folder]) }
        // Wait until the transfers have started (the server answered a file's request; each body takes
        // seconds at 100 bytes a second), then interrupt. A small file's part is only written with its
        // bytes, so the folder does not show it yet. (Bounded: a command that ended without starting
        // one would otherwise hold the run.)
        let deadline = Date().addingTimeInterval(300)
        while !server.answeredPaths().contains(where: { $0.hasPrefix("/assets/") }) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        task.cancel()
        let (code, text, _) = try await task.value
        #expect(code == 130, "an interrupted script ends with 130")
        #expect(text.contains("  cancelled   8 files (interrupted)\n"), "\(text)")
        #expect(!text.contains("failed: "))
        #expect(folderEntries(folder).allSatisfy { $0.hasSuffix(".part") || $0 == ".oceq-manifest.json" })
        #expect(try manifestFiles(folder).isEmpty)
    }

    /// The one line on stderr of a batch where one file failed.
    static let failureLine = "error: download: 1 file failed (see the summary); run it again to retry\n"

    @Test(
        "on a terminal one redrawn line shows the batch and a line per failure; off a terminal only the one-line error")
    func progress() async throws {
        let export = try SyntheticExport(count: 6)
        defer { export.remove() }
        let failing = export.files[2].id
        let server = try DownloadServer(export: export.path, faults: "503:retry-after=0:path=/assets/\(failing)")
        for terminal in [true, false] {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (session, output, errors) = try server.session(retry: .none)
            errors.isTerminal = terminal
            session.arguments = [folder]
            let code = await ScriptRunner.run(text: "download (list type=File) to $1", fileName: nil, in: session)
            #expect(code == 1)
            #expect(output.text.contains("failed: file-2.bin (\(failing)): injected fault: 503 (HTTP 503"))
            if terminal {
                // The files are planned as the pool takes them: the bytes expected are shown once
                // every file is planned.
                #expect(errors.text.hasPrefix("\r\u{1B}[Kdownload: 0/6 files, 0 B"))
                // "0 B of 10.1 KB" or "3.0 KB of 10.1 KB": which one is drawn first depends on timing.
                #expect(errors.text.contains("B of "), "\(errors.text)")
                #expect(
                    errors.text.contains("\r\u{1B}[Kfailed: file-2.bin (\(failing)): injected fault: 503 (HTTP 503"))
                #expect(errors.text.hasSuffix("\r\u{1B}[K" + Self.failureLine), "the line is cleared at the end")
                #expect(!errors.text.contains(DownloadServer.token))
            } else {
                // Only the one-line error: the summary (stdout) may be going to a file or a pipe.
                #expect(errors.text == Self.failureLine)
            }
        }
    }
}
