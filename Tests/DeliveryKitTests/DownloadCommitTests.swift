import DeliveryKit
@_spi(Testing) import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// The group commit of a download pool: seen through `DownloadCommit.observer`, which runs on the
/// commit thread at each step, where a test can look at the folder as a crash there would leave it.
@Suite("Download pool: group commit")
struct DownloadCommitTests {
    static let file = sampleBytes(10_000)

    static func server() -> StubTransport {
        StubTransport { _ in
            .response(
                status: 200, headers: [HTTPHeader("ETag", #""v1""#), HTTPHeader("Content-Length", "10000")],
                body: DownloadCommitTests.file)
        }
    }

    static func jobs(_ count: Int, in folder: String) -> [DownloadJob] {
        (0..<count).map { DownloadJob(DeliveryAPI.downloadNative(id: "CONT\($0)"), folder: folder, name: "f\($0).bin") }
    }

    /// Runs `jobs` with small batches that only fill up or end (no deadline), logging every commit
    /// step and every `finished` call, in order.
    static func run(
        _ jobs: [DownloadJob], client: DeliveryClient, maxFiles: Int, maxConcurrent: Int,
        onStep: @escaping @Sendable (DownloadCommitStep) -> Void = { _ in }
    ) async -> (results: [Result<DownloadResult, DeliveryError>], log: [String], batches: [[String]]) {
        let log = Locked<[String]>([])
        let batches = Locked<[[String]]>([])
        let policy = DownloadCommitPolicy(maxFiles: maxFiles, maxDelay: .seconds(3600))
        let results = await DownloadCommit.$policy.withValue(policy) {
            await DownloadCommit.$observer.withValue({ step in
                onStep(step)
                switch step {
                case .batch(let paths):
                    batches.withLock { $0.append(paths) }
                    log.withLock { $0.append("batch") }
                case .synced(let part): log.withLock { $0.append("synced " + part) }
                case .published(let path): log.withLock { $0.append("published " + path) }
                case .folderSynced(let folder): log.withLock { $0.append("folder " + folder) }
                case .fileSystemFlushed: log.withLock { $0.append("flush") }
                }
            }) {
                await client.download(
                    jobs, maxConcurrent: maxConcurrent,
                    finished: { index, result in
                        let state = (try? result.get()) == nil ? "failed " : "finished "
                        log.withLock { $0.append(state + jobs[index].path) }
                    })
            }
        }
        return (results, log.withLock { $0 }, batches.withLock { $0 })
    }

    /// Ten files in a new folder, two at a time, in batches of at most three, each checked complete:
    /// the folder, the jobs, the steps and the batches.
    static func tenInBatchesOfThree() async throws -> (
        folder: String, jobs: [DownloadJob], log: [String], batches: [[String]]
    ) {
        let folder = temporaryFolder()
        let jobs = Self.jobs(10, in: folder)
        let (results, log, batches) = await Self.run(
            jobs, client: try makeClient(Self.server()), maxFiles: 3, maxConcurrent: 2)
        for result in results { #expect(try result.get().bytes == 10_000) }
        return (folder, jobs, log, batches)
    }

    @Test("each file is flushed, then renamed, then its folder flushed, and only then reported")
    func order() async throws {
        let (folder, jobs, log, batches) = try await Self.tenInBatchesOfThree()
        #expect(batches.count >= 4, "10 files in batches of at most 3")
        #expect(batches.allSatisfy { $0.count <= 3 })
        #expect(Set(batches.flatMap { $0 }) == Set(jobs.map(\.path)))
        for job in jobs {
            let synced = try #require(log.firstIndex(of: "synced " + job.partPath))
            let published = try #require(log.firstIndex(of: "published " + job.path))
            let reported = try #require(log.firstIndex(of: "finished " + job.path))
            let folderSynced = try #require(log[published...].firstIndex(of: "folder " + folder))
            #expect(synced < published && published < folderSynced && folderSynced < reported, "\(job.name)")
            #expect(readFile(job.path) == Self.file)
            #expect(!fileExists(job.partPath))
        }
    }

    @Test("a batch's renames are flushed with the next batch's bytes: one flush a batch, and one to end")
    func oneFlushPerBatch() async throws {
        let folder = temporaryFolder()
        let jobs = Self.jobs(10, in: folder)
        // The first cycle is held until every file is a complete part (all ten transfer at once), so
        // that each cycle after it finds a full batch waiting beside the renames it owes: batches of
        // 3, 3, 3 and 1, and one more flush to name the last.
        let held = Locked(false)
        let (results, log, batches) = await Self.run(
            jobs, client: try makeClient(Self.server()), maxFiles: 3, maxConcurrent: 10,
            onStep: { step in
                guard case .batch = step, !held.withLock({ $0 }) else { return }
                held.withLock { $0 = true }
                let deadline = ContinuousClock.now + .seconds(20)
                while ContinuousClock.now < deadline
                    && !jobs.allSatisfy({ Self.fileSize($0.partPath) == 10_000 || Self.fileSize($0.path) == 10_000 })
                {
                    Thread.sleep(forTimeInterval: 0.01)
                }
                // The last part's transfer reports after its bytes are written.
                Thread.sleep(forTimeInterval: 0.2)
            })
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(batches.map(\.count) == [3, 3, 3, 1])
        // Two flushes a batch (its bytes, then its renames) made 8.
        let flushes = log.filter { $0 == "flush" }.count
        #expect(flushes == batches.count + 1, "\(flushes) flushes for \(batches.count) batches")
        // Between a batch's start and the next, the renames before it and its bytes share a flush.
        for (position, entry) in log.enumerated() where entry == "batch" {
            guard let next = log[(position + 1)...].firstIndex(of: "batch") else { continue }
            #expect(log[position..<next].filter { $0 == "flush" }.count == 1, "\(log[position..<next])")
        }
    }

    @Test("the last files' cycles run one after the other on the commit thread: nothing is reported between them")
    func lastCyclesTogether() async throws {
        let (_, jobs, log, _) = try await Self.tenInBatchesOfThree()
        let lastBatch = try #require(log.lastIndex(of: "batch"))
        let lastFlush = try #require(log.lastIndex(of: "flush"))
        // The last batch's cycle flushes it and renames the batch before; the next cycle renames it
        // and flushes that. Going back to the pool in between would report the batch before.
        #expect(log[lastBatch...].filter { $0 == "flush" }.count == 2, "\(log[lastBatch...])")
        let reportedBetween = log[lastBatch..<lastFlush].filter { $0.hasPrefix("finished") }
        #expect(reportedBetween.isEmpty, "\(log[lastBatch...])")
        #expect(log[lastFlush...].filter { $0.hasPrefix("finished") }.count >= 3)
        for job in jobs { #expect(readFile(job.path) == Self.file) }
    }

    /// The size of the file at `path`, or nil.
    static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    @Test("when a batch starts, its files are complete parts and only reported files have final names")
    func crashPoint() async throws {
        let folder = temporaryFolder()
        let jobs = Self.jobs(12, in: folder)
        let reported = Locked<Set<String>>([])
        let problems = Locked<[String]>([])
        let snapshots = Locked(0)
        let client = try makeClient(Self.server())
        let policy = DownloadCommitPolicy(maxFiles: 4, maxDelay: .seconds(3600))
        let results = await DownloadCommit.$policy.withValue(policy) {
            await DownloadCommit.$observer.withValue({ step in
                guard case .batch(let paths) = step else { return }
                // What a crash here would leave: the batch as complete parts, nothing else unreported.
                snapshots.withLock { $0 += 1 }
                let done = reported.withLock { $0 }
                for path in paths {
                    if fileExists(path) { problems.withLock { $0.append("\(path) has its final name") } }
                    // A part that arrived whole has no name until its rename (nothing is left of it after a
                    // crash); one with a name must be whole.
                    if let part = readFile(path + ".part"), part != Self.file {
                        problems.withLock { $0.append("\(path).part is not complete") }
                    }
                }
                for job in jobs where fileExists(job.path) && !done.contains(job.path) {
                    problems.withLock { $0.append("\(job.path) is there but was not reported") }
                }
            }) {
                await client.download(
                    jobs, maxConcurrent: 3,
                    finished: { index, _ in
                        _ = reported.withLock { $0.insert(jobs[index].path) }
                    })
            }
        }
        #expect(problems.withLock { $0 } == [])
        #expect(snapshots.withLock { $0 } >= 3)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == jobs.map(\.name).sorted())
    }

    @Test("a file whose rename fails is reported failed and stays a complete part; its batch lands")
    func renameFailure() async throws {
        let folder = temporaryFolder()
        let jobs = Self.jobs(6, in: folder)
        // A folder that is not empty under the final name: rename(2) refuses to replace it.
        try FileManager.default.createDirectory(
            atPath: jobs[2].path + "/inside", withIntermediateDirectories: true)
        let (results, log, _) = await Self.run(
            jobs, client: try makeClient(Self.server()), maxFiles: 6, maxConcurrent: 6)
        #expect(throws: DeliveryError.self) { try results[2].get() }
        #expect(readFile(jobs[2].partPath) == Self.file)
        #expect(log.contains("failed " + jobs[2].path))
        #expect(!log.contains("published " + jobs[2].path))
        for index in [0, 1, 3, 4, 5] {
            #expect(try results[index].get().path == jobs[index].path)
            #expect(readFile(jobs[index].path) == Self.file)
        }
    }

    @Test("a file cut short in the middle of a batch has no final name and alone is reported failed")
    func cutShortInBatch() async throws {
        let folder = temporaryFolder()
        let jobs = Self.jobs(8, in: folder)
        // The fourth file's body stops at 4 000 of its 10 000 bytes, every time it is asked for.
        let transport = StubTransport { request in
            let headers = [HTTPHeader("ETag", #""v1""#), HTTPHeader("Content-Length", "10000")]
            if request.url.contains("/CONT3/") {
                return .cutShort(
                    status: 200, headers: headers, partialBody: Array(Self.file.prefix(4_000)),
                    failure: .bodyCutShort)
            }
            return .response(status: 200, headers: headers, body: Self.file)
        }
        let (results, log, batches) = await Self.run(
            jobs, client: try makeClient(transport), maxFiles: 8, maxConcurrent: 4)
        #expect(throws: DeliveryError.self) { try results[3].get() }
        #expect(!FileManager.default.fileExists(atPath: jobs[3].path))
        #expect(log.contains("failed " + jobs[3].path))
        #expect(!log.contains("published " + jobs[3].path))
        #expect(!batches.joined().contains(jobs[3].path), "a short part never enters a commit")
        for index in [0, 1, 2, 4, 5, 6, 7] {
            #expect(try results[index].get().path == jobs[index].path)
            #expect(readFile(jobs[index].path) == Self.file)
        }
        let finals = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".part") }
        #expect(finals.sorted() == [0, 1, 2, 4, 5, 6, 7].map { "f\($0).bin" })
    }

    /// Runs `jobs` with a companion asked for once the last file has completed; returns the results,
    /// the indices it was asked with, those reported before it was asked, the companion and whether
    /// it had its final name before its files were renamed.
    static func runWithCompanion(
        _ jobs: [DownloadJob], client: DeliveryClient, folder: String, maxFiles: Int
    ) async -> (
        results: [Result<DownloadResult, DeliveryError>], group: [Int], reportedBefore: Set<Int>,
        companion: DownloadCompanion?, namedAtLastBatch: Bool
    ) {
        let group = Locked<[Int]>([])
        let reported = Locked<Set<Int>>([])
        let reportedBefore = Locked<Set<Int>>([])
        let made = Locked<DownloadCompanion?>(nil)
        let namedEarly = Locked(false)
        let path = folder + "/list.json"
        let policy = DownloadCommitPolicy(maxFiles: maxFiles, maxDelay: .seconds(3600))
        let results = await DownloadCommit.$policy.withValue(policy) {
            await DownloadCommit.$observer.withValue({ step in
                // The companion is only ever renamed after its batch's files.
                if case .batch = step, made.withLock({ $0 }) != nil, fileExists(path) {
                    namedEarly.withLock { $0 = true }
                }
            }) {
                await client.download(
                    jobs, maxConcurrent: 3,
                    finished: { index, _ in _ = reported.withLock { $0.insert(index) } },
                    companion: { batch in
                        group.withLock { $0 = batch.map(\.index) }
                        reportedBefore.withLock { $0 = reported.withLock { $0 } }
                        let names = batch.map { jobs[$0.index].name + " \($0.result.bytes)" }.joined(separator: "\n")
                        let companion = DownloadCompanion(
                            path: path, temporary: path + ".tmp", content: { Array(names.utf8) })
                        made.withLock { $0 = companion }
                        return companion
                    })
            }
        }
        return (
            results, group.withLock { $0 }, reportedBefore.withLock { $0 }, made.withLock { $0 },
            namedEarly.withLock { $0 }
        )
    }

    @Test("a companion is published with the last files: after they are renamed, listing the files not reported before")
    func companion() async throws {
        let folder = temporaryFolder()
        let jobs = Self.jobs(10, in: folder)
        let (results, group, reportedBefore, companion, namedEarly) = await Self.runWithCompanion(
            jobs, client: try makeClient(Self.server()), folder: folder, maxFiles: 4)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let made = try #require(companion, "asked for once, when the last file completed")
        #expect(made.published)
        #expect(!namedEarly)
        // The files of the last two cycles at most (those one cycle renames and the next flushes),
        // exactly the ones not reported yet.
        #expect(!group.isEmpty && group.count <= 8, "only the last files: \(group)")
        #expect(Set(group).isDisjoint(with: reportedBefore))
        #expect(Set(group).union(reportedBefore) == Set(jobs.indices))
        let expected = group.map { jobs[$0].name + " 10000" }.joined(separator: "\n")
        #expect(readFile(folder + "/list.json") == Array(expected.utf8))
        #expect(!fileExists(folder + "/list.json.tmp"))
    }

    @Test("a companion is not published when a file of its batch fails, and leaves nothing behind")
    func companionWithFailure() async throws {
        let folder = temporaryFolder()
        let jobs = Self.jobs(6, in: folder)
        // A folder that is not empty under the final name: rename(2) refuses to replace it.
        try FileManager.default.createDirectory(atPath: jobs[2].path + "/inside", withIntermediateDirectories: true)
        let (results, group, _, companion, _) = await Self.runWithCompanion(
            jobs, client: try makeClient(Self.server()), folder: folder, maxFiles: 6)
        #expect(throws: DeliveryError.self) { try results[2].get() }
        #expect(group.contains(2))
        let made = try #require(companion)
        #expect(!made.published)
        #expect(!fileExists(folder + "/list.json"))
        #expect(!fileExists(folder + "/list.json.tmp"))
    }

    @Test("a file waits for its batch no longer than the delay while a slow transfer runs on")
    func deadline() async throws {
        try await expectCommittedBeforeSlowOne(DownloadCommitPolicy(maxFiles: 100, maxDelay: .milliseconds(20)))
    }

    @Test("once every job has started, a file waits for its batch no longer than the final delay")
    func finalDeadline() async throws {
        // The long delay would hold the fast file past the hold's 30 s limit; both jobs start at once,
        // so the short one applies from the start.
        try await expectCommittedBeforeSlowOne(
            DownloadCommitPolicy(maxFiles: 100, maxDelay: .seconds(3600), finalDelay: .milliseconds(20)))
    }

    @Test("once every job has started, a flushed batch is renamed with the next batch's flush, not with its own")
    func renamesWaitAtTheEnd() async throws {
        // Two fast files fill a batch of two; the third is held until both are flushed. Every job has
        // started, so their renames wait (the final delay is an hour) for the third file's batch, whose
        // flush they share: three flushes in all, not four.
        let folder = temporaryFolder()
        let jobs = Self.jobs(3, in: folder)
        let transport = HeldTransport(inner: Self.server(), holding: "/CONT2/")
        let client = try makeClient(transport)
        let log = Locked<[String]>([])
        let policy = DownloadCommitPolicy(maxFiles: 2, maxDelay: .seconds(3600), finalDelay: .seconds(3600))
        let results = await DownloadCommit.$policy.withValue(policy) {
            await DownloadCommit.$observer.withValue({ step in
                switch step {
                case .batch(let paths): log.withLock { $0.append("batch \(paths.count)") }
                case .synced(let part):
                    let synced = log.withLock { log -> Int in
                        log.append("synced " + part)
                        return log.filter { $0.hasPrefix("synced") }.count
                    }
                    if synced == 2 { transport.release() }
                case .published(let path): log.withLock { $0.append("published " + path) }
                case .fileSystemFlushed: log.withLock { $0.append("flush") }
                case .folderSynced: break
                }
            }) {
                await client.download(jobs, maxConcurrent: 3)
            }
        }
        #expect(!transport.timedOut)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let steps = log.withLock { $0 }
        #expect(steps.filter { $0 == "flush" }.count == 3, "\(steps)")
        // The first two are renamed in the third file's cycle: after its batch began, before its flush.
        let lastBatch = try #require(steps.firstIndex(of: "batch 1"))
        let firstRename = try #require(steps.firstIndex { $0.hasPrefix("published") })
        #expect(lastBatch < firstRename, "\(steps)")
        for job in jobs { #expect(readFile(job.path) == Self.file) }
    }

    /// Downloads a held file and a fast one under `policy`: the fast one must be committed and
    /// reported while the other is held (its report releases the hold), not after the hold's 30 s.
    func expectCommittedBeforeSlowOne(_ policy: DownloadCommitPolicy) async throws {
        let folder = temporaryFolder()
        let jobs = [
            DownloadJob(DeliveryAPI.downloadNative(id: "SLOW"), folder: folder, name: "slow.bin"),
            DownloadJob(DeliveryAPI.downloadNative(id: "FAST"), folder: folder, name: "fast.bin"),
        ]
        let transport = HeldTransport(inner: Self.server(), holding: "/SLOW/")
        let client = try makeClient(transport)
        let order = Locked<[String]>([])
        let results = await DownloadCommit.$policy.withValue(policy) {
            await client.download(
                jobs, maxConcurrent: 2,
                finished: { index, _ in
                    order.withLock { $0.append(jobs[index].name) }
                    if index == 1 { transport.release() }
                })
        }
        // The slow transfer was released by the fast file's report, not by the hold's time limit.
        #expect(!transport.timedOut)
        #expect(order.withLock { $0 } == ["fast.bin", "slow.bin"])
        #expect(results.allSatisfy { (try? $0.get()) != nil })
    }
}

/// Holds requests whose URL contains `holding` until `release()` (or 30 s, noted as `timedOut`).
final class HeldTransport: Transport {
    let inner: any Transport
    let holding: String
    private let state = Locked((released: false, timedOut: false))

    init(inner: any Transport, holding: String) {
        self.inner = inner
        self.holding = holding
    }

    var timedOut: Bool { state.withLock { $0.timedOut } }

    func release() { state.withLock { $0.released = true } }

    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransportError) -> HTTPResponseHead {
        if request.url.contains(holding) {
            var waited = 0
            while !state.withLock({ $0.released }) {
                if waited == 6000 {
                    state.withLock { $0.timedOut = true }
                    break
                }
                waited += 1
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return try await inner.perform(request, into: sink)
    }
}
