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

    static func job(_ folder: String) -> DownloadJob {
        DownloadJob(DeliveryAPI.downloadNative(id: "CONT1"), folder: folder, name: "file.bin")
    }

    @Test("a fresh part that arrives whole is never given a validator")
    func wholeNeverMarked() throws {
        let folder = temporaryFolder()
        let job = Self.job(folder)
        let file = sampleBytes(10_000)
        let sink = DownloadSink(job: job, url: "u", resumeFrom: 0, partExisted: false, onBytes: { _, _, _ in })
        try sink.receiveHead(Self.head(length: file.count, etag: #""v1""#))
        try Self.feed(sink, file[...], chunk: 1_000)
        #expect(DownloadJob.validatorAttribute(of: job.partPath) == nil)
        let fd = try sink.finishWriting()
        #expect(DownloadJob.validatorAttribute(of: job.partPath) == nil)
        #expect(!fileExists(job.metaPath))
        FileIO.close(fd)
        #expect(readFile(job.partPath) == file)
    }

    @Test("a fresh part is given its validator before the first write that leaves it short")
    func shortWriteMarked() throws {
        let folder = temporaryFolder()
        let job = Self.job(folder)
        let file = sampleBytes(600_000)
        let sink = DownloadSink(job: job, url: "u", resumeFrom: 0, partExisted: false, onBytes: { _, _, _ in })
        try sink.receiveHead(Self.head(length: file.count, etag: #""v1""#))
        #expect(DownloadJob.validatorAttribute(of: job.partPath) == nil)
        // 300 KB: more than one write buffer (256 KiB), so bytes reach the part while it is short.
        try Self.feed(sink, file[..<300_000], chunk: 50_000)
        #expect((readFile(job.partPath)?.count ?? 0) > 0)
        #expect(job.storedValidator == #""v1""#)
        try Self.feed(sink, file[300_000...], chunk: 50_000)
        let fd = try sink.finishWriting()
        #expect(DownloadJob.validatorAttribute(of: job.partPath) == nil, "dropped once the part is whole")
        FileIO.close(fd)
        #expect(readFile(job.partPath) == file)
    }

    @Test("a fresh part cut off keeps its bytes and its validator, for the next run to resume")
    func cutMarked() throws {
        let folder = temporaryFolder()
        let job = Self.job(folder)
        let file = sampleBytes(10_000)
        let sink = DownloadSink(job: job, url: "u", resumeFrom: 0, partExisted: false, onBytes: { _, _, _ in })
        try sink.receiveHead(Self.head(length: file.count, etag: #""v1""#))
        try Self.feed(sink, file[..<2_500], chunk: 1_000)
        sink.closeKeepingBytes()
        #expect(readFile(job.partPath) == Array(file[..<2_500]))
        #expect(job.storedValidator == #""v1""#)
    }

    @Test("a part that was there gets the new answer's validator at its head, in place of the old one")
    func existingReplacedAtHead() throws {
        let folder = temporaryFolder()
        let job = Self.job(folder)
        let old = DownloadSink(job: job, url: "u", resumeFrom: 0, partExisted: false, onBytes: { _, _, _ in })
        try old.receiveHead(Self.head(length: 10_000, etag: #""old""#))
        try Self.feed(old, sampleBytes(10_000)[..<4_000], chunk: 1_000)
        old.closeKeepingBytes()
        #expect(job.storedValidator == #""old""#)
        let sink = DownloadSink(job: job, url: "u", resumeFrom: 0, partExisted: true, onBytes: { _, _, _ in })
        try sink.receiveHead(Self.head(length: 8_000, etag: #""new""#))
        #expect(job.storedValidator == #""new""#, "before any byte of the new answer")
        sink.closeKeepingBytes()
    }
}
