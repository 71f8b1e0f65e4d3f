// Downloads: one file streamed to `<name>.part`, length-checked, flushed and renamed; a part left
// by an interrupted run (or attempt) is resumed with `Range` + `If-Range` when its validator is
// known; many files (an array of jobs, or jobs handed out one at a time as the caller plans them,
// `download(next:)`) run in a bounded pool with per-file and total progress, their flushes and
// renames grouped beside the transfers (`DownloadCommit`). Over libcurl the pool prepares as many
// files again as it may transfer and the engine keeps them waiting in a `TransferLane`, starting the
// next on its own thread as soon as one ends. A job that carries the
// ETag of the copy it already has asks with `If-None-Match` and keeps that copy on a 304. A write
// that fails for want of space (disk or quota full, file-size limit) removes the part: a disk that
// filled up leaves nothing half-written behind, not even a part to resume.

import DeliveryKit
import Dispatch
import OCEQCore

extension DeliveryClient {
    /// Downloads one file to `job.folder/job.name`.
    ///
    /// The body goes to `<name>.part`; only a complete, flushed file with the announced length is
    /// renamed to the final name, so a failure never leaves a file there. A part from an earlier
    /// attempt is resumed when the server honours `If-Range`; otherwise it is replaced.
    public func download(
        _ job: DownloadJob, index: Int = 0, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(DeliveryError) -> DownloadResult {
        try await download(job, index: index, progress: progress, bytes: nil)
    }

    /// Downloads many files, at most `maxConcurrent` at a time. One failure does not stop the
    /// others; the results are in the order of `jobs`. Complete files are committed in small
    /// batches (`DownloadCommit`) beside the transfers: a batch's parts are flushed together, then
    /// renamed, and the renames flushed with the next batch's parts. `finished` is called with each
    /// job's index and result once it is over (a success only after its file is durable under its
    /// final name), one call at a time (never concurrently), so a caller can record completed files
    /// while the batch runs. `companion`, when given, is asked once the last file has completed
    /// (with the jobs not reported yet and the results they will have once committed) for a file to
    /// publish after them (`DownloadCompanion`: a folder's manifest). It runs on the caller's actor
    /// (`isolation`, by default the caller's), where `finished` is called, so `finished` may touch
    /// the caller's state (the shell's session).
    public func download(
        _ jobs: [DownloadJob], maxConcurrent: Int = 8, progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        totals: (@Sendable (DownloadTotals) -> Void)? = nil,
        finished: ((Int, Result<DownloadResult, DeliveryError>) -> Void)? = nil,
        companion: (([(index: Int, result: DownloadResult)]) -> DownloadCompanion?)? = nil,
        announce: (([(index: Int, result: DownloadResult)]) -> DownloadAnnouncement?)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [Result<DownloadResult, DeliveryError>] {
        var remaining = jobs.makeIterator()
        return await download(
            next: { remaining.next() }, maxConcurrent: maxConcurrent, progress: progress, totals: totals,
            finished: finished, companion: companion, announce: announce, isolation: isolation)
    }

    /// Downloads the files `next` hands out, one job at a time until it returns nil, as
    /// `download(_:maxConcurrent:...)` downloads an array of jobs: a job's index is its place in the
    /// order `next` gave them. `next` is called on the caller's actor (`isolation`), only when a
    /// place is free for one more file, so a caller can plan each job as it is asked for and the
    /// first files transfer while the others are still being planned. `totals.files` counts the jobs
    /// handed out so far. `announce`, when given, is asked for each group of parts whose bytes a cycle
    /// is about to flush (with the results they will have once named) for lines to append before
    /// anything of that cycle happens (`DownloadAnnouncement`: a folder's manifest journal), so that
    /// every file is described somewhere before it has its name.
    public func download(
        next: @escaping () async -> DownloadJob?, maxConcurrent: Int = 8,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil, totals: (@Sendable (DownloadTotals) -> Void)? = nil,
        finished: ((Int, Result<DownloadResult, DeliveryError>) -> Void)? = nil,
        companion: (([(index: Int, result: DownloadResult)]) -> DownloadCompanion?)? = nil,
        announce: (([(index: Int, result: DownloadResult)]) -> DownloadAnnouncement?)? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async -> [Result<DownloadResult, DeliveryError>] {
        let counter = Locked(DownloadTotals(files: 0, completed: 0, failed: 0, bytesReceived: 0))
        let onBytes: @Sendable (Int64) -> Void = { delta in
            guard delta > 0 else { return }
            let now = counter.withLock { state -> DownloadTotals in
                state.bytesReceived += delta
                return state
            }
            totals?(now)
        }
        var jobs: [DownloadJob] = []
        var results: [Result<DownloadResult, DeliveryError>?] = []
        func report(_ index: Int, _ result: Result<DownloadResult, DeliveryError>) {
            results[index] = result
            finished?(index, result)
            let now = counter.withLock { state -> DownloadTotals in
                if case .success = result { state.completed += 1 } else { state.failed += 1 }
                return state
            }
            totals?(now)
        }
        var seen: Set<String> = []
        var exhausted = false
        /// The index of the next job to transfer, taken from `next` (a job whose target another job
        /// of the batch has is failed at once); nil once `next` has none left.
        func pull() async -> Int? {
            while !exhausted {
                guard let job = await next() else {
                    exhausted = true
                    return nil
                }
                let index = jobs.count
                jobs.append(job)
                results.append(nil)
                counter.withLock { $0.files += 1 }
                if seen.insert(job.path).inserted { return index }
                report(index, .failure(.invalidRequest("\(job.path) is the target of another download in the batch")))
            }
            return nil
        }
        let observer = DownloadCommit.observer
        let queue = DispatchQueue(label: "oceq.download.commit")
        // Over libcurl the engine bounds the transfers (`TransferLane`), so as many files again are
        // prepared and handed to it ahead, to start there the moment a place is free; over another
        // transport the pool alone bounds them.
        // Under a low limit on open descriptors (`ulimit -n 32`), fewer transfers and smaller batches, each
        // file holding one from its part to its name, rather than files failing with "Too many open files".
        let (running, policy) = DownloadCommit.policy.fitting(
            descriptors: Self.descriptorLimit - Self.descriptorsHeldElsewhere, maxConcurrent: maxConcurrent)
        let lane = transport is CurlTransport ? TransferLane(limit: running) : nil
        let prepared = lane == nil ? running : 2 * running
        await withTaskGroup(of: PoolEvent.self, isolation: isolation) { group in
            // Capturing `isolation` makes this closure run on the caller's actor (SE-0420), where `report`
            // calls `finished`; without the capture it would run on the global pool.
            _ = isolation
            var transferring = 0
            var staged: [(Int, StagedDownload)] = []
            var stagedSince = ContinuousClock.now
            var committing = false
            /// Parts the last cycle flushed, and the companion it wrote: the next cycle renames them.
            var flushed: [(Int, StagedDownload)] = []
            /// When the last cycle ended with parts in `flushed`, and whether a deadline for their renames runs.
            var flushedSince = ContinuousClock.now
            var renamesDeadline = false
            var written: DownloadCompanion?
            var companionAsked = false
            /// How long a batch's first file waits: shorter once every job has started, when what is
            /// left to commit decides how soon the batch ends.
            func delay() -> Duration { exhausted ? policy.finalDelay : policy.maxDelay }
            func launch(_ index: Int) {
                transferring += 1
                let job = jobs[index]
                // Started on this thread, up to the request handed to the engine: a task queued on the
                // pool waited there behind the parts' direct writes (the pool has a thread per core).
                group.addImmediateTask {
                    // Assigned, then returned after the `do`: with Swift 6.3.1 -O, returning the
                    // tuple from inside `do throws(DeliveryError)` here loses its index (every
                    // result came back as index 0 or garbage, and the pool crashed).
                    let outcome = await TransferLane.$current.withValue(lane) {
                        () async -> Result<StagedOutcome, DeliveryError> in
                        let outcome: Result<StagedOutcome, DeliveryError>
                        do throws(DeliveryError) {
                            outcome = .success(try await stage(job, index: index, progress: progress, bytes: onBytes))
                        } catch {
                            outcome = .failure(error)
                        }
                        return outcome
                    }
                    return .transferred(index, outcome)
                }
            }
            func startDeadline(_ delay: Duration) {
                group.addTask {
                    try? await Task.sleep(for: delay)
                    return .deadline
                }
            }
            /// Starts the next cycle (one at a time) when parts wait for their rename (or a companion
            /// for its), and takes the waiting parts into it (at most `maxFiles`) when the batch is
            /// full, old enough, or nothing else is running to add to it.
            func commitIfDue() {
                guard !committing else { return }
                let waited = ContinuousClock.now - stagedSince
                let batchDue =
                    !staged.isEmpty && (staged.count >= policy.maxFiles || transferring == 0 || waited >= delay())
                // Once every job has started, parts flushed wait for the next batch's cycle to be renamed
                // (for the final delay at most) rather than take a cycle of their own: its `syncfs` held up the
                // direct writes of the last files (the disk takes them one after the other), and the end
                // then waited for one cycle more.
                let renamesWait = exhausted && transferring > 0 && written == nil
                let sinceFlushed = ContinuousClock.now - flushedSince
                if !batchDue && renamesWait && !flushed.isEmpty && sinceFlushed < policy.finalDelay {
                    if !renamesDeadline {
                        renamesDeadline = true
                        startDeadline(policy.finalDelay - sinceFlushed)
                    }
                    return
                }
                guard batchDue || !flushed.isEmpty || written != nil else { return }
                var cycle = CommitCycle(publish: flushed, companionToPublish: written)
                flushed = []
                written = nil
                if batchDue {
                    cycle.flush = Array(staged.prefix(policy.maxFiles))
                    staged.removeFirst(cycle.flush.count)
                    if !staged.isEmpty { startDeadline(max(.zero, delay() - waited)) }
                }
                // The last files: nothing left to transfer or to flush after them. The companion
                // lists them (those this cycle renames and those it flushes) and is renamed after them;
                // nothing can join a later cycle, so the commit thread runs them all at once.
                let throughTheEnd = staged.isEmpty && transferring == 0 && exhausted
                if !companionAsked && throughTheEnd, let companion {
                    companionAsked = true
                    cycle.companionToWrite = companion(
                        (cycle.publish + cycle.flush).map { (index: $0.0, result: $0.1.result) })
                }
                // The parts this cycle flushes are described before the next names them, unless the
                // companion written now lists them: it is renamed right after their names, on the same
                // thread, and a journal entry would only add to the end of the download.
                if !cycle.flush.isEmpty, cycle.companionToWrite == nil, let announce {
                    cycle.announcement = announce(cycle.flush.map { (index: $0.0, result: $0.1.result) })
                }
                committing = true
                // Handed to the commit thread from this thread: a task queued on the pool waited for one of
                // its threads, busy with direct writes, and the cycle started up to 1 ms late (74 renditions).
                group.addImmediateTask {
                    .committed(
                        await DownloadCommit.run(cycle, on: queue, observer: observer, throughTheEnd: throughTheEnd))
                }
            }
            /// Parts waiting for a commit hold a descriptor each: new transfers wait while two
            /// batches' worth are waiting. A file waiting in the lane holds none (its part is opened
            /// with the answer's head).
            func mayLaunch() -> Bool {
                !exhausted && transferring < prepared && staged.count < 2 * policy.maxFiles
            }
            /// Starts files while there is room for them and jobs to take. When the jobs run out, the
            /// parts waiting get the final delay from then on.
            func launchWhileRoom() async {
                while mayLaunch() {
                    guard let index = await pull() else {
                        if !staged.isEmpty {
                            startDeadline(max(.zero, policy.finalDelay - (ContinuousClock.now - stagedSince)))
                        }
                        return
                    }
                    launch(index)
                }
            }
            await launchWhileRoom()
            for await event in group {
                switch event {
                case .transferred(let index, .success(.staged(let part))):
                    transferring -= 1
                    // Write-back of a small part starts now, off the pool, so the disk writes it
                    // while the transfers go on and the batch's `syncfs` has little left to write
                    // (a large part's was started as its bytes came). The commit of its batch is
                    // queued behind this on the same serial queue, so the descriptor is still open.
                    // (Leaving small parts to the batch's `syncfs` alone saved 8 % of the command's
                    // CPU but took 5 % longer at 500 renditions: the last batch's flush had it all to
                    // write. Scripts/bench-download-command, 21 rounds.)
                    // A part written past the page cache has at most one block there: the batch's
                    // `syncfs` writes it, without a hop to the queue for each file.
                    if part.result.bytes < DownloadSink.writeBehind && !part.writtenDirect {
                        let fd = part.fd
                        queue.async { FileIO.startWriteBack(fd, offset: 0, length: 0) }
                    }
                    if staged.isEmpty {
                        stagedSince = ContinuousClock.now
                        startDeadline(delay())
                    }
                    staged.append((index, part))
                case .transferred(let index, .success(.done(let result))):
                    transferring -= 1
                    report(index, .success(result))
                case .transferred(let index, .failure(let error)):
                    transferring -= 1
                    report(index, .failure(error))
                case .committed(let outcome):
                    committing = false
                    flushed = outcome.flushed
                    flushedSince = ContinuousClock.now
                    renamesDeadline = false
                    written = outcome.companion
                    for (index, result) in outcome.results { report(index, result) }
                case .deadline:
                    break
                }
                await launchWhileRoom()
                commitIfDue()
                await launchWhileRoom()
                // Only deadline timers can be left: end them rather than wait for them.
                if transferring == 0 && staged.isEmpty && !committing && flushed.isEmpty && written == nil {
                    group.cancelAll()
                }
            }
        }
        return results.map { $0 ?? .failure(.invalidRequest("not run")) }
    }

    /// The process's limit on open descriptors, raised to its hard limit by the first batch (as the
    /// server raises it): each file holds one between its transfer and its name.
    private static let descriptorLimit = FileSystem.raiseDescriptorLimit()

    /// Descriptors a pool leaves to the rest of the process (standard streams, the engine's and
    /// Dispatch's event descriptors, a server serving a local export in-process, the manifest).
    private static let descriptorsHeldElsewhere = 32

    /// What a pool's child task reports.
    private enum PoolEvent: Sendable {
        case transferred(Int, Result<StagedOutcome, DeliveryError>)
        case committed(CommitOutcome)
        case deadline
    }

    /// A transfer's end: a part to commit, or a result that needs none (304).
    enum StagedOutcome: Sendable {
        case staged(StagedDownload)
        case done(DownloadResult)
    }

    /// One download committed on its own: flushed, renamed, its folder flushed.
    func download(
        _ job: DownloadJob, index: Int, progress: (@Sendable (DownloadProgress) -> Void)?,
        bytes: (@Sendable (Int64) -> Void)?
    ) async throws(DeliveryError) -> DownloadResult {
        switch try await stage(job, index: index, progress: progress, bytes: bytes) {
        case .done(let result): return result
        case .staged(let part): return try part.commitNow()
        }
    }

    /// Transfers one file into its complete part, not yet flushed or renamed.
    func stage(
        _ job: DownloadJob, index: Int, progress: (@Sendable (DownloadProgress) -> Void)?,
        bytes: (@Sendable (Int64) -> Void)?
    ) async throws(DeliveryError) -> StagedOutcome {
        do {
            return try await attempt(job, index: index, progress: progress, bytes: bytes)
        } catch {
            if error.isOutOfSpace {
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
            }
            throw error
        }
    }

    private func attempt(
        _ job: DownloadJob, index: Int, progress: (@Sendable (DownloadProgress) -> Void)?,
        bytes: (@Sendable (Int64) -> Void)?
    ) async throws(DeliveryError) -> StagedOutcome {
        try job.validate()
        let prepared = try prepare(download: job.request)
        // A folder inside another is made now, link by link; any other when its first part is
        // opened (`FileIO.openPart`).
        if let root = job.containedIn { try FileIO.makeContainedDirectories(job.folder, inside: root) }
        let onBytes: @Sendable (Int64, Int64, Int64?) -> Void = { delta, received, expected in
            bytes?(delta)
            progress?(DownloadProgress(index: index, name: job.name, received: received, expected: expected))
        }
        // A 416 for a stale part discards it and starts once more from scratch.
        for _ in 0..<2 {
            // The previous attempt's sink: its buffered bytes are written before the part is measured.
            var lastSink: DownloadSink?
            let head: HTTPResponseHead
            let sink: DownloadSink
            do {
                (head, sink) = try await exchange(
                    prepared, accept: { (200..<300).contains($0) || $0 == 416 || ($0 == 304 && job.ifNoneMatch != nil) }
                ) {
                    _ throws(DeliveryError) in
                    lastSink?.closeKeepingBytes()
                    var request = HTTPRequest(url: prepared.url, headers: prepared.headers)
                    if let etag = job.ifNoneMatch { request.headers.append(HTTPHeader("If-None-Match", etag)) }
                    var resumeFrom: Int64 = 0
                    // No part to look for when the caller found none and no attempt made one.
                    let size = job.partMayExist || lastSink != nil ? FileIO.size(job.partPath) : nil
                    if let size, size > 0 {
                        let meta = DownloadMeta.load(for: job)
                        if let validator = meta?.validator, size <= meta?.length ?? Int64.max {
                            resumeFrom = size
                            request.headers.append(HTTPHeader("Range", "bytes=\(size)-"))
                            request.headers.append(HTTPHeader("If-Range", validator))
                        }
                    }
                    let sink = DownloadSink(
                        job: job, url: prepared.redactedURL, resumeFrom: resumeFrom, partExisted: size != nil,
                        onBytes: onBytes)
                    lastSink = sink
                    return (request, sink)
                }
            } catch {
                // Leave the part as long as the bytes received, for the next run to resume.
                lastSink?.closeKeepingBytes()
                throw error
            }
            switch sink.mode {
            case .notModified:
                // The copy on disk is current; a part beside it is stale.
                if sink.sidecarMayExist {
                    FileIO.remove(job.partPath)
                    FileIO.remove(job.metaPath)
                }
                return .done(
                    DownloadResult(
                        path: job.path, bytes: FileIO.size(job.path) ?? 0, contentType: head.header("Content-Type"),
                        etag: head.header("ETag") ?? job.ifNoneMatch, notModified: true))
            case .rangeNotSatisfiable(let completeLength):
                if let completeLength, completeLength == sink.resumeFrom {
                    // The part is already whole (a run stopped between the last byte and the rename).
                    FileIO.removeAttribute(job.partPath, FileIO.validatorAttribute)
                    let fd = try FileIO.openExisting(job.partPath)
                    return .staged(
                        try staged(
                            job, fd: fd, sink: sink, head: head, expected: completeLength, resumedFrom: completeLength))
                }
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
                continue
            case .writing:
                let fd = try sink.finishWriting()
                return .staged(
                    try staged(
                        job, fd: fd, sink: sink, head: head, expected: sink.expectedTotal, resumedFrom: sink.startOffset
                    ))
            case .waiting, .errorBody:
                // A 206 or 416 to a request without `Range`.
                throw .http(
                    HTTPError(
                        method: prepared.method, url: prepared.redactedURL, status: head.status, body: sink.errorBody,
                        retryAfter: nil, redactor: redactor))
            }
        }
        throw .invalidResponse(url: prepared.redactedURL, reason: "the server refused the range of a fresh download")
    }

    /// Checks the length of the part open as `fd` (its validator already dropped): a complete part
    /// is staged for its flush and rename, which take over `fd`; otherwise `fd` is closed. The part is
    /// measured through `fd` (the file written, whatever its path holds now), and the same `fstat`
    /// gives the device its batch's `syncfs` flushes.
    private func staged(
        _ job: DownloadJob, fd: Int32, sink: DownloadSink, head: HTTPResponseHead, expected: Int64?,
        resumedFrom: Int64
    ) throws(DeliveryError) -> StagedDownload {
        guard let facts = FileIO.openFileFacts(fd) else {
            let error = FileIO.fail(job.partPath, "measure")
            FileIO.close(fd)
            throw error
        }
        let size = facts.size
        if let expected, size != expected {
            FileIO.close(fd)
            if size > expected {
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
            }
            throw .bodyCutShort(url: sink.url, received: size, expected: expected)
        }
        let result = DownloadResult(
            path: job.path, bytes: size, resumedFrom: resumedFrom, contentType: head.header("Content-Type"),
            etag: head.header("ETag"))
        return StagedDownload(
            job: job, fd: fd, device: facts.device, result: result, sidecarMayExist: sink.sidecarMayExist,
            writtenDirect: sink.wroteDirect, nameless: sink.nameless)
    }
}
