// When a part gets its validator (the `user.oceq.validator` attribute that makes it resumable): a fresh
// part only before a write that leaves it short of its length, so a file that arrives whole never has one;
// a part that was there before this attempt at once, replacing what it carried.

import DeliveryKit
import FoundationEssentials
import OCEQCore
import Testing

@_spi(Testing) @testable import DeliveryTransport

@Suite("DownloadSink: when a part gets its validator")
struct DownloadSinkValidatorTests {
    static func head(length: Int, etag: String) -> HTTPResponseHead {
        HTTPResponseHead(
            status: 200, headers: [HTTPHeader("Content-Length", String(length)), HTTPHeader("ETag", etag)])
    }

    static func feed(_ sink: DownloadSink, _ bytes: ArraySlice<UInt8>, chunk: Int) throws {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(start + chunk, bytes.endIndex)
            try bytes[start..<end].withUnsafeBytes { try sink.receiveBody($0) }
            start = end
        }
    }

    /// A sink for `name` (by default `file.bin` in a new folder) that has had the head of a 200 of
    /// `length` bytes.
    static func started(
        length: Int, etag: String = #""v1""#, partExisted: Bool = false, in folder: String = temporaryFolder(),
        name: String = "file.bin"
    ) throws -> (DownloadJob, DownloadSink) {
        let job = DownloadJob(DeliveryAPI.downloadNative(id: "CONT1"), folder: folder, name: name)
        let sink = DownloadSink(job: job, url: "u", resumeFrom: 0, partExisted: partExisted, onBytes: { _, _, _ in })
        try sink.receiveHead(head(length: length, etag: etag))
        return (job, sink)
    }

    /// Ends `sink`'s writing and checks the part: `file`'s bytes, no validator left on it or beside it.
    /// A whole fresh part may have no name (`DownloadSink.nameless`): it is then read through `fd`.
    static func expectWhole(_ sink: DownloadSink, _ job: DownloadJob, _ file: [UInt8]) throws {
        let fd = try sink.finishWriting()
        defer { FileIO.close(fd) }
        let part = partPath(of: sink, job, fd: fd)
        #expect(DownloadJob.validatorAttribute(of: part) == nil, "a whole part keeps no validator")
        #expect(!fileExists(job.metaPath))
        #expect(readFile(part) == file)
    }

    /// Where the part `sink` handed over as `fd` can be read: its path, or its descriptor's when it has none.
    static func partPath(of sink: DownloadSink, _ job: DownloadJob, fd: Int32) -> String {
        guard sink.nameless else { return job.partPath }
        #expect(!fileExists(job.partPath), "a nameless part has no .part")
        return "/proc/self/fd/\(fd)"
    }

    @Test("a fresh part that arrives whole is never given a validator")
    func wholeNeverMarked() throws {
        let file = sampleBytes(10_000)
        let (job, sink) = try Self.started(length: file.count)
        try Self.feed(sink, file[...], chunk: 1_000)
        #expect(DownloadJob.validatorAttribute(of: job.partPath) == nil, "none before the part is closed either")
        try Self.expectWhole(sink, job, file)
    }

    @Test("a fresh part is given its validator before the first write that leaves it short")
    func shortWriteMarked() throws {
        let file = sampleBytes(600_000)
        let (job, sink) = try Self.started(length: file.count)
        #expect(DownloadJob.validatorAttribute(of: job.partPath) == nil)
        // 300 KB: more than one write buffer (256 KiB), so bytes reach the part while it is short.
        try Self.feed(sink, file[..<300_000], chunk: 50_000)
        #expect((readFile(job.partPath)?.count ?? 0) > 0)
        #expect(job.storedValidator == #""v1""#)
        try Self.feed(sink, file[300_000...], chunk: 50_000)
        try Self.expectWhole(sink, job, file)
    }

    @Test("a fresh part cut off keeps its bytes and its validator, for the next run to resume")
    func cutMarked() throws {
        let file = sampleBytes(10_000)
        let (job, sink) = try Self.started(length: file.count)
        try Self.feed(sink, file[..<2_500], chunk: 1_000)
        sink.closeKeepingBytes()
        #expect(readFile(job.partPath) == Array(file[..<2_500]))
        #expect(job.storedValidator == #""v1""#)
    }

    @Test("a part that was there gets the new answer's validator at its head, in place of the old one")
    func existingReplacedAtHead() throws {
        let (job, old) = try Self.started(length: 10_000, etag: #""old""#)
        try Self.feed(old, sampleBytes(10_000)[..<4_000], chunk: 1_000)
        old.closeKeepingBytes()
        #expect(job.storedValidator == #""old""#)
        let (_, sink) = try Self.started(length: 8_000, etag: #""new""#, partExisted: true, in: job.folder)
        #expect(job.storedValidator == #""new""#, "before any byte of the new answer")
        sink.closeKeepingBytes()
    }
}
