// Ctrl-C during a script, through the built binary: the running `download` is cancelled as in the
// REPL, records what completed, prints its summary, and oceq then exits 130. SIGTERM and SIGHUP stop
// it the same way (exit 143 and 129), so that a run ended by `kill` or `timeout` can be run again
// without copies of what it had named. The server is `oceq serve --faults` as its own process, each
// file delayed so that the batch is still running when the signal arrives.

import DeliveryKit
import DownloadModule
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("download: Ctrl-C in a script (the oceq binary)", .serialized)
struct InterruptedScriptTests {
    /// The files in `folder` under their final names (not parts, not the manifest).
    static func finalFiles(_ folder: String) -> Set<String> {
        Set(folderEntries(folder).filter(isFinalFile))
    }

    @Test(
        "a signal mid-batch: the summary is printed, the manifest lists exactly the complete files, the exit code says which; a rerun completes without copies",
        arguments: [
            (SIGINT, 130, "interrupted\n"), (SIGTERM, 143, "terminated (SIGTERM)\n"),
            (SIGHUP, 129, "terminated (SIGHUP)\n"),
        ])
    func interrupted(signal: Int32, code: Int32, report: String) async throws {
        let export = try SyntheticExport(count: 24)
        defer { export.remove() }
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = temporaryFolder("oceq-dl-script") + "/bulk.oceq"
        defer { try? FileManager.default.removeItem(atPath: (script as NSString).deletingLastPathComponent) }
        try Data("echo start\ndownload (list type=File) to $1 --concurrency 2\necho never\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        let server = try await ServeProcess(
            export: export.path,
            arguments: ["--token", DownloadServer.token, "--faults", "delay:ms=300:path=/assets"])
        defer { server.stop() }

        let process = try ChildProcess(
            OceqBinary.executable.path,
            ["--url", server.origin, "--token", DownloadServer.token, "--color", "never", script, folder],
            directory: OceqBinary.repositoryRoot.path, stdin: .null, stdout: .pipe, stderr: .pipe)

        // Interrupt once a few files are complete and the rest are still to come. Watched on a thread
        // of its own: in a full parallel run the cooperative pool was once busy for longer than the
        // whole batch took, and the test saw the process only after it had ended.
        let interrupted = await OffPool.run { () -> Bool in
            let deadline = Date().addingTimeInterval(120)
            while Self.finalFiles(folder).count < 3, process.isRunning, Date() < deadline { usleep(10_000) }
            guard process.isRunning else { return false }
            process.kill(signal)
            return true
        }
        try #require(interrupted, "the batch ended before it could be interrupted")
        let finished = await process.finish()
        let output = finished.stdoutText
        let errors = finished.stderrText

        #expect(finished.termination == .exit(code), "\(output)\n\(errors)")
        #expect(output.hasPrefix("start\n"))
        #expect(output.contains("  cancelled "), "the download's summary: \(output)")
        #expect(!output.contains("never"), "the script stops at the interrupt")
        #expect(errors.hasSuffix(report), "\(errors)")
        #expect(!output.contains(DownloadServer.token) && !errors.contains(DownloadServer.token))

        let onDisk = Self.finalFiles(folder)
        let entries = try manifestFiles(folder)
        let listed = Set(entries.compactMap { $0["file"]?.stringValue })
        #expect(listed == onDisk, "the manifest lists exactly the complete files")
        #expect(folderEntries(folder).allSatisfy { !$0.hasPrefix(".oceq-manifest.json.tmp") }, "no manifest copy left")
        #expect(onDisk.count >= 3 && onDisk.count < export.files.count, "\(onDisk.count) files complete")
        let byId = Dictionary(uniqueKeysWithValues: export.files.map { ($0.id, $0.bytes) })
        for entry in entries {
            let name = try #require(entry["file"]?.stringValue)
            let id = try #require(entry["assetId"]?.stringValue)
            #expect(fileBytes(folder + "/" + name) == byId[id], "\(name) is whole")
        }

        // The next run keeps those files and fetches the others under their own names: no copies.
        let rerun = try ChildProcess(
            OceqBinary.executable.path,
            ["--url", server.origin, "--token", DownloadServer.token, "-c", "download (list type=File) to \(folder)"],
            directory: OceqBinary.repositoryRoot.path, stdin: .null, stdout: .pipe, stderr: .pipe)
        let second = await rerun.finish()
        #expect(second.termination == .exit(0), "\(second.stdoutText)\n\(second.stderrText)")
        #expect(second.stdoutText.contains("skipped     \(onDisk.count) file"), "\(second.stdoutText)")
        #expect(Self.finalFiles(folder).count == export.files.count, "\(Self.finalFiles(folder).sorted())")
    }

    @Test("SIGKILL mid-batch: the next run keeps the files named before the kill (the manifest's journal), no copies")
    func killed() async throws {
        let export = try SyntheticExport(count: 24)
        defer { export.remove() }
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await ServeProcess(
            export: export.path,
            arguments: ["--token", DownloadServer.token, "--faults", "delay:ms=300:path=/assets"])
        defer { server.stop() }
        let arguments = [
            "--url", server.origin, "--token", DownloadServer.token, "-c",
            "download (list type=File) to \(folder) --concurrency 2",
        ]
        let process = try ChildProcess(
            OceqBinary.executable.path, arguments, directory: OceqBinary.repositoryRoot.path, stdin: .null,
            stdout: .pipe, stderr: .pipe)
        let killed = await OffPool.run { () -> Bool in
            let deadline = Date().addingTimeInterval(120)
            while Self.finalFiles(folder).count < 3, process.isRunning, Date() < deadline { usleep(10_000) }
            guard process.isRunning else { return false }
            process.kill(SIGKILL)
            return true
        }
        try #require(killed, "the batch ended before it could be killed")
        _ = await process.finish()
        let onDisk = Self.finalFiles(folder)
        #expect(onDisk.count >= 3 && onDisk.count < export.files.count, "\(onDisk.count) files complete")

        let rerun = try ChildProcess(
            OceqBinary.executable.path, arguments, directory: OceqBinary.repositoryRoot.path, stdin: .null,
            stdout: .pipe, stderr: .pipe)
        let second = await rerun.finish()
        #expect(second.termination == .exit(0), "\(second.stdoutText)\n\(second.stderrText)")
        #expect(second.stdoutText.contains("skipped     \(onDisk.count) file"), "\(second.stdoutText)")
        #expect(Self.finalFiles(folder).count == export.files.count, "\(Self.finalFiles(folder).sorted())")
        #expect(!folderEntries(folder).contains(DownloadManifest.journalName), "the journal goes with the final save")
        let listed = Set(try manifestFiles(folder).compactMap { $0["file"]?.stringValue })
        #expect(listed == Self.finalFiles(folder))
    }
}
