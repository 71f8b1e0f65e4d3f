// Streams a download's body into `<name>.part`. A 200 truncates the part and records the response's
// validator in `<name>.part.meta`; a 206 (to our `Range` request) appends after checking that
// `Content-Range` starts where the part ends; a 416 is noted so the caller can tell a complete part
// from a stale one; any other status is collected in memory as an error body.

/// The body sink of one download attempt.
final class DownloadSink: ExchangeSink, @unchecked Sendable {
    enum Mode: Equatable {
        case waiting
        case writing
        case rangeNotSatisfiable(completeLength: Int64?)
        case errorBody
    }

    let job: DownloadJob
    let url: String
    /// The part's size when a `Range` request was sent, else 0.
    let resumeFrom: Int64
    let onBytes: @Sendable (_ delta: Int64, _ received: Int64, _ expected: Int64?) -> Void

    private(set) var mode = Mode.waiting
    private(set) var failure: DeliveryError?
    private(set) var bodyBytes: Int64 = 0
    private(set) var errorBody: [UInt8] = []
    /// Where this attempt's bytes start in the file.
    private(set) var startOffset: Int64 = 0
    /// The full size of the file, from `Content-Range` or `Content-Length`.
    private(set) var expectedTotal: Int64?
    private(set) var head: HTTPResponseHead?
    private var fd: Int32 = -1

    init(
        job: DownloadJob, url: String, resumeFrom: Int64,
        onBytes: @escaping @Sendable (Int64, Int64, Int64?) -> Void
    ) {
        self.job = job
        self.url = url
        self.resumeFrom = resumeFrom
        self.onBytes = onBytes
    }

    deinit {
        if fd >= 0 { FileIO.close(fd) }
    }

    func receiveHead(_ head: HTTPResponseHead) throws {
        self.head = head
        do {
            switch head.status {
            case 200..<300 where head.status != 206:
                fd = try FileIO.openForWriting(job.partPath, append: false)
                startOffset = 0
                expectedTotal = head.contentLength
                try DownloadMeta(head: head, length: expectedTotal).store(at: job.metaPath)
                mode = .writing
            case 206 where resumeFrom > 0:
                guard let range = ContentRange(head.header("Content-Range") ?? ""), range.first == resumeFrom else {
                    let text = head.header("Content-Range") ?? "none"
                    throw DeliveryError.invalidResponse(
                        url: url, reason: "Content-Range \(text) does not continue the part at byte \(resumeFrom)")
                }
                fd = try FileIO.openForWriting(job.partPath, append: true)
                startOffset = resumeFrom
                expectedTotal = range.completeLength ?? head.contentLength.map { resumeFrom + $0 }
                mode = .writing
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
                try FileIO.writeAll(fd, chunk, path: job.partPath)
            } catch {
                failure = error
                throw error
            }
            onBytes(Int64(chunk.count), startOffset + bodyBytes, expectedTotal)
        case .errorBody:
            errorBody.append(contentsOf: chunk.prefix(max(0, MemorySink.errorBodyLimit - errorBody.count)))
        case .waiting, .rangeNotSatisfiable:
            break
        }
    }

    /// Flushes and closes the part file.
    func finishWriting() throws(DeliveryError) {
        guard fd >= 0 else { return }
        defer {
            FileIO.close(fd)
            fd = -1
        }
        try FileIO.sync(fd, path: job.partPath)
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

    static func load(from path: String) -> DownloadMeta? {
        guard let bytes = FileIO.read(path), let json = try? JSON.parse(bytes) else { return nil }
        return DownloadMeta(
            validator: json["validator"]?.stringValue, length: json["length"]?.intValue.map { Int64($0) })
    }

    func store(at path: String) throws(DeliveryError) {
        guard validator != nil else {
            FileIO.remove(path)
            return
        }
        var object: [String: JSON] = [:]
        if let validator { object["validator"] = .string(validator) }
        if let length { object["length"] = .int(Int(length)) }
        try FileIO.writeFile(path, JSONWriter().bytes(.object(object)))
    }
}
