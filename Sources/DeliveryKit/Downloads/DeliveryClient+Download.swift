// Downloads: one file streamed to `<name>.part`, flushed, length-checked and renamed; a part left
// by an interrupted run (or attempt) is resumed with `Range` + `If-Range` when its validator is
// known; many files run in a bounded pool with per-file and total progress. A job that carries the
// ETag of the copy it already has asks with `If-None-Match` and keeps that copy on a 304. A write
// that fails for want of space (disk or quota full, file-size limit) removes the part: a disk that
// filled up leaves nothing half-written behind, not even a part to resume.

extension DeliveryClient {
    /// Downloads one file to `job.folder/job.name`.
    ///
    /// The body goes to `<name>.part`; only a complete, flushed file with the announced length is
    /// renamed to the final name, so a failure never leaves a file there. A part from an earlier
    /// attempt is resumed when the server honours `If-Range`; otherwise it is replaced.
    public func download(
        _ job: DownloadJob, index: Int = 0, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(DeliveryError) -> DownloadResult {
        try await download(job, index: index, progress: progress, bytes: nil, syncFolder: true)
    }

    /// Downloads many files, at most `maxConcurrent` at a time. One failure does not stop the
    /// others; the results are in the order of `jobs`. Each file is flushed before its rename; the
    /// folders (the renames) are flushed once each when the batch is over. `finished` is called
    /// with each job's index and result as it ends, one call at a time (never concurrently), so a
    /// caller can record completed files while the batch runs.
    public func download(
        _ jobs: [DownloadJob], maxConcurrent: Int = 8, progress: (@Sendable (DownloadProgress) -> Void)? = nil,
        totals: (@Sendable (DownloadTotals) -> Void)? = nil,
        finished: ((Int, Result<DownloadResult, DeliveryError>) -> Void)? = nil
    ) async -> [Result<DownloadResult, DeliveryError>] {
        let counter = Locked(DownloadTotals(files: jobs.count, completed: 0, failed: 0, bytesReceived: 0))
        let onBytes: @Sendable (Int64) -> Void = { delta in
            guard delta > 0 else { return }
            let now = counter.withLock { state -> DownloadTotals in
                state.bytesReceived += delta
                return state
            }
            totals?(now)
        }
        var results = [Result<DownloadResult, DeliveryError>?](repeating: nil, count: jobs.count)
        var seen: Set<String> = []
        var runnable: [Int] = []
        for (index, job) in jobs.enumerated() {
            if seen.insert(job.path).inserted {
                runnable.append(index)
            } else {
                let failure = DeliveryError.invalidRequest("\(job.path) is the target of another download in the batch")
                results[index] = .failure(failure)
                counter.withLock { $0.failed += 1 }
                finished?(index, .failure(failure))
            }
        }
        await withTaskGroup(of: (Int, Result<DownloadResult, DeliveryError>).self) { group in
            var next = 0
            func launch() {
                let index = runnable[next]
                next += 1
                let job = jobs[index]
                group.addTask {
                    // Assigned, then returned after the `do`: with Swift 6.3.1 -O, returning the
                    // tuple from inside `do throws(DeliveryError)` here loses its index (every
                    // result came back as index 0 or garbage, and the pool crashed).
                    let outcome: Result<DownloadResult, DeliveryError>
                    do throws(DeliveryError) {
                        outcome = .success(
                            try await download(
                                job, index: index, progress: progress, bytes: onBytes, syncFolder: false))
                    } catch {
                        outcome = .failure(error)
                    }
                    return (index, outcome)
                }
            }
            while next < runnable.count && next < max(1, maxConcurrent) { launch() }
            for await (index, result) in group {
                results[index] = result
                finished?(index, result)
                let now = counter.withLock { state -> DownloadTotals in
                    if case .success = result { state.completed += 1 } else { state.failed += 1 }
                    return state
                }
                totals?(now)
                if next < runnable.count { launch() }
            }
        }
        var folders: Set<String> = []
        for (index, result) in results.enumerated() {
            if case .success = result, folders.insert(jobs[index].folder).inserted {
                FileIO.syncDirectory(jobs[index].folder)
            }
        }
        return results.map { $0 ?? .failure(.invalidRequest("not run")) }
    }

    func download(
        _ job: DownloadJob, index: Int, progress: (@Sendable (DownloadProgress) -> Void)?,
        bytes: (@Sendable (Int64) -> Void)?, syncFolder: Bool
    ) async throws(DeliveryError) -> DownloadResult {
        do {
            return try await attempt(job, index: index, progress: progress, bytes: bytes, syncFolder: syncFolder)
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
        bytes: (@Sendable (Int64) -> Void)?, syncFolder: Bool
    ) async throws(DeliveryError) -> DownloadResult {
        try job.validate()
        let prepared = try prepare(download: job.request)
        try FileIO.makeDirectories(job.folder)
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
                    let size = FileIO.size(job.partPath)
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
                return DownloadResult(
                    path: job.path, bytes: FileIO.size(job.path) ?? 0, contentType: head.header("Content-Type"),
                    etag: head.header("ETag") ?? job.ifNoneMatch, notModified: true)
            case .rangeNotSatisfiable(let completeLength):
                if let completeLength, completeLength == sink.resumeFrom {
                    // The part is already whole (a run stopped between the last byte and the rename).
                    FileIO.removeAttribute(job.partPath, FileIO.validatorAttribute)
                    try FileIO.syncFile(job.partPath)
                    return try complete(
                        job, sink: sink, head: head, expected: completeLength, resumedFrom: completeLength,
                        syncFolder: syncFolder)
                }
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
                continue
            case .writing:
                try sink.finishWriting()
                return try complete(
                    job, sink: sink, head: head, expected: sink.expectedTotal, resumedFrom: sink.startOffset,
                    syncFolder: syncFolder)
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

    /// Checks the part's length (its validator already dropped) and renames it to the final name;
    /// flushes the folder when `syncFolder` (a batch flushes its folders once at the end instead).
    private func complete(
        _ job: DownloadJob, sink: DownloadSink, head: HTTPResponseHead, expected: Int64?, resumedFrom: Int64,
        syncFolder: Bool
    ) throws(DeliveryError) -> DownloadResult {
        let size = FileIO.size(job.partPath) ?? 0
        if let expected, size != expected {
            if size > expected {
                FileIO.remove(job.partPath)
                FileIO.remove(job.metaPath)
            }
            throw .bodyCutShort(url: sink.url, received: size, expected: expected)
        }
        try FileIO.rename(job.partPath, job.path)
        if syncFolder { FileIO.syncDirectory(job.folder) }
        if sink.sidecarMayExist { FileIO.remove(job.metaPath) }
        return DownloadResult(
            path: job.path, bytes: size, resumedFrom: resumedFrom, contentType: head.header("Content-Type"),
            etag: head.header("ETag"))
    }
}
