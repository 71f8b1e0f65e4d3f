// Streams a download's body into `<name>.part`. A 200 truncates the part and records the response's
// validator in the part's `user.oceq.validator` extended attribute (in a `<name>.part.meta` sidecar
// only where the filesystem refuses user xattrs); a 206 (to our `Range` request) appends after
// checking that `Content-Range` starts where the part ends; a 416 is noted so the caller can tell a
// complete part from a stale one; any other status is collected in memory as an error body.
//
// Durability, and what it costs:
// - Bytes are coalesced into writes of up to `writeBufferSize` (libcurl hands over whatever one
//   `recv` returned), so a small file is one `write`, a large one a write per 256 KiB.
// - Every `writeBehind` bytes the sink starts write-back of what it wrote (`sync_file_range`,
//   SYNC_FILE_RANGE_WRITE, which does not wait), so the disk works while the network does and the
//   `fsync` before the rename has little left to write instead of the whole file.
// - When the last byte of a file that reached `writeBehind` is written, write-back of the rest is
//   started too. A smaller file is left to its flush: in a batch that is the group's one `syncfs`,
//   which writes many small files at once, where starting each one's write-back blocked a thread of
//   Swift's two-thread pool for about 80 µs a file (strace of `download`, 74 renditions).
// - A fresh part whose bytes all fit the write buffer (every rendition and thumbnail of the samples)
//   is written past the page cache (`O_DIRECT`, `FileIO.writeDirect`) by `finishWriting`: its whole
//   blocks go from the buffer straight to the disk, its last partial block through the cache. The
//   flush before the rename would write every byte anyway; copying them into the page cache first
//   was a third of the CPU of a download of 500 renditions (the kernel's
//   `copy_folio_from_iter_atomic`, for curl too). The same binary with and without it, both orders:
//   74 renditions 0.91x-0.93x the time and 0.79x-0.82x the CPU (61 rounds each), 500 renditions
//   0.84x-0.85x the time and 0.66x-0.68x the CPU (21 rounds each). A larger file is written through the
//   cache as it comes, on the engine thread, where a write that waits for the disk would hold up
//   every transfer; a file system that refuses `O_DIRECT` gets the cache too, and so does a folder
//   where three direct writes took longer than `FileIO.slowDirectWrite` (a spinning disk, a network
//   or USB file system: waiting for the device file after file on the pool's two threads would cost
//   more than one flush of many files' cached bytes).
// - A fresh part (no part was there before this attempt) is opened with its first write, not with
//   the answer's head: a file that fits the write buffer is opened, written and handed over in one go
//   by `finishWriting`, on the thread of the file's task, instead of being created on the engine
//   thread, which drives every transfer. Creating a file takes the folder's lock, which the renames
//   of the group commit hold too: the engine thread waited there (94 times in a download of 500
//   renditions, `sched_switch` in state D), and each wait held up every transfer.
// - A fresh part whose bytes all came before its first write, and as many as announced, gets no name
//   (`FileIO.openNamelessPart`, `O_TMPFILE`): it is named `job.path` with `linkat` when its batch is
//   committed. Such a part is never resumed (it is written in one go), so a name was only a cost:
//   creating `<name>.part` and renaming it each took the folder's lock, on which the pool's two
//   threads spun behind each other and behind the commit's renames (`rwsem_spin_on_owner`, 9 % of a
//   74-rendition download's CPU, and more where creating each inode is slow: in a file system that
//   has just deleted many files). In alternating rounds: 74 renditions 0.97x the time (100 rounds,
//   2.5 % less CPU), 0.82x just after a large deletion (40 rounds; curl's own time had doubled).
// - The open part is handed over (`finishWriting`) for its flush, which always comes before the
//   rename: a name without `.part` only ever holds a complete, length-checked file, even after a
//   crash.
// - A single download then `fsync`s, renames and `fsync`s its folder at once; a batch
//   (`download(_:maxConcurrent:)`) commits complete parts in groups beside its transfers
//   (`DownloadCommit`: one `syncfs` for the group's data, the renames, one for the renames), and
//   only then reports them. A crash before a group's renames leaves complete `.part` files
//   (validator already dropped), which the next run downloads again, never a partial file under
//   the final name.
// - The validator lives on the part itself, so a download creates one file, not two. It is
//   removed through the open part once the length is right, before the flush, so the final file
//   carries nothing of ours; a short part keeps it for the resume.
// - A fresh part gets its validator just before the first write that leaves it short of its length,
//   not with the answer's head: a file that arrives whole in one write (every file up to 256 KiB
//   that is not cut off) never has one, which spares two system calls of about twenty a file (setting
//   the attribute, then removing it). A part on disk with bytes and short of its length still always
//   has its validator. A part that was there before this attempt gets it at the head, as the stale
//   validator or sidecar it may carry must go at once.
// Anything written but not flushed when an attempt fails is written out (`closeKeepingBytes`) before
// the next attempt measures the part, so a resume starts where the bytes really end.
import DeliveryKit
import OCEQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The body sink of one download attempt.
final class DownloadSink: ExchangeSink, @unchecked Sendable {
    enum Mode: Equatable {
        case waiting
        case writing
        case rangeNotSatisfiable(completeLength: Int64?)
        /// A 304 to the job's `If-None-Match`: the copy on disk is current.
        case notModified
        case errorBody
    }

    let job: DownloadJob
    let url: String
    /// The part's size when a `Range` request was sent, else 0.
    let resumeFrom: Int64
    /// A part (and maybe its sidecar or attribute) was there before this attempt, or this attempt
    /// wrote a sidecar: the sidecar must be removed when the part is done.
    private(set) var sidecarMayExist: Bool
    let onBytes: @Sendable (_ delta: Int64, _ received: Int64, _ expected: Int64?) -> Void

    private(set) var mode = Mode.waiting
    private(set) var failure: DeliveryError?
    private(set) var bodyBytes: Int64 = 0
    /// The part was written past the page cache (`FileIO.writeDirect`), all but its last partial block.
    private(set) var wroteDirect = false
    /// The part has no name yet (`FileIO.openNamelessPart`): it is named `job.path` when committed.
    private(set) var nameless = false
    private(set) var errorBody: [UInt8] = []
    /// Where this attempt's bytes start in the file.
    private(set) var startOffset: Int64 = 0
    /// The full size of the file, from `Content-Range` or `Content-Length`.
    private(set) var expectedTotal: Int64?
    private(set) var head: HTTPResponseHead?
    private var fd: Int32 = -1
    /// A fresh part not opened yet: it is opened (and truncated) with its first write.
    private var opensWithFirstWrite = false
    /// Bytes waiting for one larger write.
    private var buffer: UnsafeMutableRawPointer?
    private var buffered = 0
    /// Bytes written to the file by this attempt (after `startOffset`).
    private var written: Int64 = 0
    /// Where write-back was last started, as a file offset.
    private var writeBackFrom: Int64 = 0
    /// The part may carry a validator attribute (set by this attempt, or an earlier one it resumes).
    private var attributeMayExist = false
    /// A fresh part's validator, not stored yet: stored before the first write that leaves the part
    /// short, dropped when the write completes it.
    private var pendingMeta: DownloadMeta?

    /// The largest write; smaller chunks are gathered up to this.
    static let writeBufferSize = 256 << 10
    /// Write-back is started every this many bytes.
    static let writeBehind: Int64 = 8 << 20
    /// Write buffers of finished sinks, for the next ones: a fresh buffer's pages were faulted in
    /// (and zeroed) anew for every file, as the allocator handed the freed ones back to the system
    /// (measured: a quarter of a 500-rendition batch's page faults).
    private static let spareBuffers = Locked<[UInt]>([])  // addresses, to be Sendable
    /// Spare buffers kept at most (a pool runs 8 transfers by default).
    static let maxSpareBuffers = 16

    /// Keeps `buffer` for the next sink, or frees it when enough are kept.
    private static func recycle(_ buffer: UnsafeMutableRawPointer) {
        let kept = spareBuffers.withLock { spare -> Bool in
            guard spare.count < maxSpareBuffers else { return false }
            spare.append(UInt(bitPattern: buffer))
            return true
        }
        if !kept { buffer.deallocate() }
    }

    init(
        job: DownloadJob, url: String, resumeFrom: Int64, partExisted: Bool,
        onBytes: @escaping @Sendable (Int64, Int64, Int64?) -> Void
    ) {
        self.job = job
        self.url = url
        self.resumeFrom = resumeFrom
        self.sidecarMayExist = partExisted
        self.onBytes = onBytes
    }

    deinit {
        closeKeepingBytes()
        if let buffer { Self.recycle(buffer) }
    }

    func receiveHead(_ head: HTTPResponseHead) throws {
        self.head = head
        do {
            switch head.status {
            case 200..<300 where head.status != 206:
                startOffset = 0
                expectedTotal = head.contentLength
                let meta = DownloadMeta(head: head, length: expectedTotal)
                if sidecarMayExist {
                    // What was there goes at once: the part is truncated and its validator replaced.
                    fd = try FileIO.openPart(of: job, append: false)
                    try store(meta)
                } else {
                    opensWithFirstWrite = true
                    if meta.validator != nil { pendingMeta = meta }
                }
                mode = .writing
            case 206 where resumeFrom > 0:
                guard let range = ContentRange(head.header("Content-Range") ?? ""), range.first == resumeFrom else {
                    let text = head.header("Content-Range") ?? "none"
                    throw DeliveryError.invalidResponse(
                        url: url, reason: "Content-Range \(text) does not continue the part at byte \(resumeFrom)")
                }
                fd = try FileIO.openPart(of: job, append: true)
                startOffset = resumeFrom
                writeBackFrom = resumeFrom
                attributeMayExist = true
                expectedTotal = range.completeLength ?? head.contentLength.map { resumeFrom + $0 }
                mode = .writing
            case 304 where job.ifNoneMatch != nil:
                mode = .notModified
            case 416 where resumeFrom > 0:
                mode = .rangeNotSatisfiable(
                    completeLength: ContentRange(head.header("Content-Range") ?? "")?.completeLength)
            default:
                mode = .errorBody
            }
        } catch let error as DeliveryError {
            failure = error
            throw error
        }
        if mode == .writing { onBytes(0, startOffset, expectedTotal) }
    }

    func receiveBody(_ chunk: UnsafeRawBufferPointer) throws {
        bodyBytes += Int64(chunk.count)
        switch mode {
        case .writing:
            do {
                try write(chunk)
            } catch {
                failure = error
                throw error
            }
            onBytes(Int64(chunk.count), startOffset + bodyBytes, expectedTotal)
        case .errorBody:
            errorBody.append(contentsOf: chunk.prefix(max(0, MemorySink.errorBodyLimit - errorBody.count)))
        case .waiting, .rangeNotSatisfiable, .notModified:
            break
        }
    }

    /// Gathers small chunks into one write; a large chunk goes straight to the file.
    private func write(_ chunk: UnsafeRawBufferPointer) throws(DeliveryError) {
        let capacity = Self.writeBufferSize
        if buffered > 0 && buffered + chunk.count > capacity { try flushBuffer() }
        if chunk.count >= capacity / 2 {
            try openIfFresh()
            try storeValidator(before: chunk.count)
            try FileIO.writeAll(fd, chunk, path: job.partPath)
            try wrote(chunk.count)
            return
        }
        let target: UnsafeMutableRawPointer
        if let buffer {
            target = buffer
        } else {
            target =
                Self.spareBuffers.withLock { $0.popLast() }.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
                ?? .allocate(byteCount: capacity, alignment: FileIO.directBlock)
            buffer = target
        }
        if let base = chunk.baseAddress { (target + buffered).copyMemory(from: base, byteCount: chunk.count) }
        buffered += chunk.count
        if buffered == capacity { try flushBuffer() }
    }

    /// Writes what is buffered. `whole`: these are all the file's bytes and the part is fresh, so
    /// it is opened, written past the page cache where the file system allows (`FileIO.writeDirect`)
    /// and complete.
    private func flushBuffer(whole: Bool = false) throws(DeliveryError) {
        guard buffered > 0, let buffer else { return }
        var direct =
            whole && opensWithFirstWrite && buffered >= FileIO.directBlock && !FileIO.directIsSlow(in: job.folder)
        // A fresh part whose every byte is here needs no name until it is committed: it is not resumed.
        try openIfFresh(direct: &direct, nameless: whole && startOffset == 0 && expectedTotal == Int64(buffered))
        try storeValidator(before: buffered)
        let count = buffered
        buffered = 0
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        if direct {
            let start = ContinuousClock.now
            try FileIO.writeDirect(fd, bytes, path: job.partPath)
            wroteDirect = true
            if ContinuousClock.now - start > FileIO.slowDirectWrite { FileIO.noteSlowDirect(in: job.folder) }
        } else {
            try FileIO.writeAll(fd, bytes, path: job.partPath)
        }
        try wrote(count)
    }

    /// Opens (and truncates) a fresh part before its first write (`opensWithFirstWrite`).
    private func openIfFresh() throws(DeliveryError) {
        var direct = false
        try openIfFresh(direct: &direct)
    }

    /// Opens a fresh part, `O_DIRECT` when `direct` and its file system takes it (`direct` then stays
    /// true); with `nameless`, without a name where the file system allows (`FileIO.openNamelessPart`).
    private func openIfFresh(direct: inout Bool, nameless: Bool = false) throws(DeliveryError) {
        guard opensWithFirstWrite else {
            direct = false
            return
        }
        opensWithFirstWrite = false
        if nameless, let fd = FileIO.openNamelessPart(of: job, direct: &direct) {
            self.fd = fd
            self.nameless = true
            return
        }
        fd = try FileIO.openPart(of: job, append: false, direct: &direct)
    }

    /// Records `meta` on the part (or in its sidecar where the file system refuses attributes).
    private func store(_ meta: DownloadMeta) throws(DeliveryError) {
        if try meta.store(on: fd, for: job, partExisted: sidecarMayExist) { sidecarMayExist = true }
        attributeMayExist = meta.validator != nil && !sidecarMayExist
    }

    /// Before `count` more bytes are written: a fresh part's validator is stored unless those bytes make
    /// the part whole (a whole part is about to lose it anyway).
    private func storeValidator(before count: Int) throws(DeliveryError) {
        guard let meta = pendingMeta else { return }
        pendingMeta = nil
        if let total = expectedTotal, startOffset + written + Int64(count) == total { return }
        try store(meta)
    }

    /// Counts written bytes and starts write-back of each completed `writeBehind` stretch.
    private func wrote(_ count: Int) throws(DeliveryError) {
        written += Int64(count)
        let end = startOffset + written
        if end - writeBackFrom >= Self.writeBehind {
            FileIO.startWriteBack(fd, offset: writeBackFrom, length: end - writeBackFrom)
            writeBackFrom = end
        }
    }

    /// Writes what is buffered, drops the validator when the part is complete (it is about to be
    /// renamed; an incomplete one keeps it for a resume) and, for a file of at least `writeBehind`
    /// bytes, starts write-back of what is left.
    /// Returns the open part, which the caller now owns, for its `fsync` before the rename.
    func finishWriting() throws(DeliveryError) -> Int32 {
        // What is buffered is written; a fresh part that fits the write buffer is opened and written
        // here, in one go.
        do {
            try flushBuffer(whole: true)
        } catch {
            closeKeepingBytes()
            throw error
        }
        // An empty one too.
        try openIfFresh()
        guard fd >= 0 else { throw FileIO.fail(job.partPath, "write", EBADF) }
        let open = fd
        fd = -1
        if attributeMayExist && (expectedTotal == nil || expectedTotal == startOffset + written) {
            FileIO.removeAttribute(open, FileIO.validatorAttribute)
        }
        let end = startOffset + written
        if end > writeBackFrom && end >= Self.writeBehind {
            FileIO.startWriteBack(open, offset: writeBackFrom, length: end - writeBackFrom)
        }
        return open
    }

    /// After a failed attempt: writes what is buffered (best effort, unflushed) and closes the part,
    /// so its size is where the received bytes end. The transfer is over, so no body comes after.
    func closeKeepingBytes() {
        // A fresh part with bytes waiting is opened to keep them, as one opened with the head would.
        if opensWithFirstWrite && buffered > 0 && mode == .writing { try? openIfFresh() }
        guard fd >= 0 else { return }
        if mode == .writing { try? flushBuffer() }
        buffered = 0
        FileIO.close(fd)
        fd = -1
    }
}

/// `Content-Range: bytes first-last/complete` or `bytes */complete`.
struct ContentRange: Equatable {
    var first: Int64?
    var last: Int64?
    var completeLength: Int64?

    init?(_ text: String) {
        let trimmed = text.trimmedWhitespace
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = String(trimmed.dropFirst(6)).trimmedWhitespace
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        completeLength = parts[1] == "*" ? nil : Int64(parts[1])
        if parts[0] != "*" {
            let bounds = parts[0].split(separator: "-", maxSplits: 1)
            guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
                return nil
            }
            self.first = first
            self.last = last
        }
    }
}

/// What makes a part resumable: the validator of the response that started it.
struct DownloadMeta: Equatable {
    /// A strong ETag or a Last-Modified date, for `If-Range`.
    var validator: String?
    /// The full size announced by that response.
    var length: Int64?

    init(validator: String?, length: Int64?) {
        self.validator = validator
        self.length = length
    }

    /// The validator of a response: its strong ETag, else its Last-Modified.
    init(head: HTTPResponseHead, length: Int64?) {
        let etag = head.header("ETag").map { $0.trimmedWhitespace }
        if let etag, !etag.isEmpty, !etag.hasPrefix("W/") {
            validator = etag
        } else {
            validator = head.header("Last-Modified")?.trimmedWhitespace
        }
        self.length = length
    }

    /// The meta of `job`'s part: its extended attribute, else the sidecar file.
    static func load(for job: DownloadJob) -> DownloadMeta? {
        if let bytes = FileIO.attribute(job.partPath, FileIO.validatorAttribute), let meta = decode(bytes) {
            return meta
        }
        return FileIO.read(job.metaPath).flatMap(decode)
    }

    static func decode(_ bytes: [UInt8]) -> DownloadMeta? {
        guard let json = try? JSON.parse(bytes) else { return nil }
        return DownloadMeta(
            validator: json["validator"]?.stringValue, length: json["length"]?.intValue.map { Int64($0) })
    }

    var encoded: [UInt8] {
        var object: [String: JSON] = [:]
        if let validator { object["validator"] = .string(validator) }
        if let length { object["length"] = .int(Int(length)) }
        return JSONWriter().bytes(.object(object))
    }

    /// Records this meta for the part just opened (and truncated) as `fd`: in its extended attribute,
    /// or in the sidecar where the filesystem refuses them; true when it wrote the sidecar. Without a
    /// validator, nothing is kept, and what an earlier part left is dropped (`partExisted`: a part
    /// was there, so an attribute or sidecar may be too; O_TRUNC keeps attributes).
    func store(on fd: Int32, for job: DownloadJob, partExisted: Bool) throws(DeliveryError) -> Bool {
        guard validator != nil else {
            if partExisted {
                FileIO.removeAttribute(fd, FileIO.validatorAttribute)
                FileIO.remove(job.metaPath)
            }
            return false
        }
        if !job.validatorInSidecar,
            try FileIO.setAttribute(fd, FileIO.validatorAttribute, encoded, path: job.partPath)
        {
            if partExisted { FileIO.remove(job.metaPath) }
            return false
        }
        if partExisted { FileIO.removeAttribute(fd, FileIO.validatorAttribute) }
        try FileIO.writeFile(job.metaPath, encoded)
        return true
    }
}
