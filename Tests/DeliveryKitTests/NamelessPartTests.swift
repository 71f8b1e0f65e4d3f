// A fresh file that arrives whole is written to a part with no name (`O_TMPFILE`) and named only when
// committed; every other part is `<name>.part`. Both end as the same file under the same rules.
import DeliveryKit
import FoundationEssentials
import OCEQCore
import Testing

@_spi(Testing) @testable import DeliveryTransport

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Downloads: parts with no name until they are committed")
struct NamelessPartTests {
    /// A client whose server answers every request with `body` (its length and an ETag announced).
    static func client(serving body: [UInt8]) throws -> DeliveryClient {
        try makeClient(
            StubTransport { _ in
                .response(
                    status: 200,
                    headers: [HTTPHeader("ETag", #""v1""#), HTTPHeader("Content-Length", String(body.count))],
                    body: body)
            })
    }

    static func job(in folder: String, name: String = "file.bin") -> DownloadJob {
        DownloadJob(DeliveryAPI.downloadNative(id: "CONT1"), folder: folder, name: name)
    }

    /// The part `sink` wrote for a body of `size` bytes fed whole, and the sink.
    static func finished(size: Int, in folder: String) throws -> (DownloadJob, DownloadSink, Int32) {
        let (job, sink) = try DownloadSinkValidatorTests.started(length: size, in: folder)
        try DownloadSinkValidatorTests.feed(sink, sampleBytes(size)[...], chunk: 16_384)
        return (job, sink, try sink.finishWriting())
    }

    /// Whether `path` is a symbolic link.
    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    @Test("a fresh file that arrives whole has no name on disk until it is named, with its bytes")
    func wholeFileIsNameless() throws {
        let folder = temporaryFolder()
        let (job, sink, fd) = try Self.finished(size: 10_000, in: folder)
        #expect(sink.nameless, "O_TMPFILE works on the tests' file system")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [], "nothing in the folder yet")
        try FileIO.name(fd, as: job)
        FileIO.close(fd)
        #expect(readFile(job.path) == sampleBytes(10_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file.bin"])
    }

    @Test("a file too large for one write, or resumed, still streams into a named .part")
    func largeFileIsNamed() throws {
        let folder = temporaryFolder()
        let size = DownloadSink.writeBufferSize + 1
        let (job, sink, fd) = try Self.finished(size: size, in: folder)
        FileIO.close(fd)
        #expect(!sink.nameless)
        #expect(readFile(job.partPath) == sampleBytes(size))
    }

    @Test("naming over a file that is there replaces it, through a .part, and leaves no .part")
    func namedOverExistingFile() throws {
        let folder = temporaryFolder()
        let (job, _, fd) = try Self.finished(size: 5_000, in: folder)
        try Data("old".utf8).write(to: URL(fileURLWithPath: job.path))
        try FileIO.name(fd, as: job)
        FileIO.close(fd)
        #expect(readFile(job.path) == sampleBytes(5_000))
        #expect(!fileExists(job.partPath))
    }

    @Test("naming never writes through a link: one at the name or at the .part is replaced, its target untouched")
    func namedOverLinks() throws {
        let folder = temporaryFolder()
        let outside = temporaryFolder() + "/outside"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        let (job, _, fd) = try Self.finished(size: 5_000, in: folder)
        try FileManager.default.createSymbolicLink(atPath: job.path, withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: job.partPath, withDestinationPath: outside)
        try FileIO.name(fd, as: job)
        FileIO.close(fd)
        #expect(readFile(outside) == Array("keep".utf8))
        #expect(!Self.isLink(job.path) && readFile(job.path) == sampleBytes(5_000))
        #expect(!fileExists(job.partPath) && !Self.isLink(job.partPath))
    }

    @Test("a pool names its whole files, leaving no .part; a planted .part link beside one is left alone")
    func poolNamesWholeFiles() async throws {
        let folder = temporaryFolder()
        let outside = temporaryFolder() + "/outside"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        let jobs = (0..<6).map { Self.job(in: folder, name: "f\($0).bin") }
        try FileManager.default.createSymbolicLink(atPath: jobs[0].partPath, withDestinationPath: outside)
        let results = await (try Self.client(serving: sampleBytes(20_000)).download(jobs, maxConcurrent: 3))
        for (job, result) in zip(jobs, results) {
            #expect(try result.get().path == job.path)
            #expect(readFile(job.path) == sampleBytes(20_000))
        }
        #expect(readFile(outside) == Array("keep".utf8))
        #expect(Self.isLink(jobs[0].partPath), "a link the download never opened stays as it was")
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(entries == ["f0.bin", "f0.bin.part"] + (1..<6).map { "f\($0).bin" })
    }

    @Test("a named .part that is a planted link is refused, and nothing is written through it")
    func plantedLinkRefusedForNamedPart() async throws {
        let folder = temporaryFolder()
        let outside = temporaryFolder() + "/outside"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: outside))
        let job = Self.job(in: folder)
        try FileManager.default.createSymbolicLink(atPath: job.partPath, withDestinationPath: outside)
        // Larger than one write: streamed into `file.bin.part` as it comes.
        let client = try Self.client(serving: sampleBytes(DownloadSink.writeBufferSize * 2))
        await #expect(throws: DeliveryError.self) { try await client.download(job) }
        #expect(readFile(outside) == Array("keep".utf8))
        #expect(!fileExists(job.path))
    }

    @Test("where no nameless file can be made (here: the folder is missing), the part is a .part, its folder made")
    func fallsBackToNamedPart() throws {
        let folder = temporaryFolder() + "/made/by/the/part"
        var direct = true
        #expect(FileIO.openNamelessPart(of: Self.job(in: folder), direct: &direct) == nil)
        let (job, sink, fd) = try Self.finished(size: 10_000, in: folder)
        FileIO.close(fd)
        #expect(!sink.nameless)
        #expect(readFile(job.partPath) == sampleBytes(10_000))
    }
}
