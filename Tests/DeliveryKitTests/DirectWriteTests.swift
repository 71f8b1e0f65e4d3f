// Writes past the page cache: a fresh part whose bytes all fit the sink's buffer is opened `O_DIRECT`
// and written with `FileIO.writeDirect` (whole blocks to the disk, the last partial block through the
// cache). Whatever the size and however the memory is aligned, the file holds exactly the bytes, and
// the descriptor handed on writes through the cache again.

import CSystem
import DeliveryKit
import OCEQCore
import Testing

@_spi(Testing) @testable import DeliveryTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

@Suite("Writes past the page cache (O_DIRECT)")
struct DirectWriteTests {
    /// Whether the file system of `folder` takes `O_DIRECT` (tmpfs only since Linux 6.6).
    static func takesDirect(_ folder: String) -> Bool {
        let probe = folder + "/probe"
        let fd = open(probe, O_WRONLY | O_CREAT | O_CLOEXEC | oceq_o_direct(), 0o644)
        guard fd >= 0 else { return false }
        close(fd)
        unlink(probe)
        return true
    }

    /// Whether `fd` is open `O_DIRECT`.
    static func isDirect(_ fd: Int32) -> Bool {
        fcntl(fd, F_GETFL) & oceq_o_direct() != 0
    }

    /// `bytes` copied to memory aligned to a block (as the sink's buffer is), at `offset` bytes past it.
    static func withAligned<T>(
        _ bytes: [UInt8], offset: Int = 0, _ body: (UnsafeRawBufferPointer) throws -> T
    ) rethrows -> T {
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: bytes.count + offset + 1, alignment: FileIO.directBlock)
        defer { memory.deallocate() }
        bytes.withUnsafeBytes { (memory + offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return try body(UnsafeRawBufferPointer(start: memory + offset, count: bytes.count))
    }

    /// Writes a fresh part `name` of `size` bytes in `folder` through a sink (a 200, fed in chunks),
    /// checks its bytes and that the descriptor handed on writes through the cache; whether it went
    /// direct.
    static func writeFresh(_ name: String, size: Int, in folder: String) throws -> Bool {
        let (job, sink) = try DownloadSinkValidatorTests.started(length: size, in: folder, name: name)
        let file = sampleBytes(size)
        try DownloadSinkValidatorTests.feed(sink, file[...], chunk: 16_384)
        let fd = try sink.finishWriting()
        defer { FileIO.close(fd) }
        #expect(!isDirect(fd), "\(name): the part is handed on writing through the cache")
        #expect(readFile(DownloadSinkValidatorTests.partPath(of: sink, job, fd: fd)) == file, "\(name)")
        return sink.wroteDirect
    }

    @Test(
        "every size is written whole, and the descriptor writes through the cache afterwards",
        arguments: [0, 1, 4_095, 4_096, 4_097, 8_209, 60_000, 262_144])
    func sizes(count: Int) throws {
        let folder = temporaryFolder()
        let path = folder + "/f.part"
        let bytes = sampleBytes(count)
        var direct = true
        let fd = try FileIO.openForWriting(path, append: false, direct: &direct)
        #expect(direct == Self.takesDirect(folder))
        #expect(Self.isDirect(fd) == direct)
        try Self.withAligned(bytes) { try FileIO.writeDirect(fd, $0, path: path) }
        #expect(!Self.isDirect(fd), "O_DIRECT is off once the bytes are written")
        // A write after it needs no alignment.
        try [UInt8]([7, 8, 9]).withUnsafeBytes { try FileIO.writeAll(fd, $0, path: path) }
        FileIO.close(fd)
        #expect(readFile(path) == bytes + [7, 8, 9])
    }

    @Test("memory off a block boundary is written through the cache, byte for byte")
    func unalignedMemory() throws {
        let folder = temporaryFolder()
        let path = folder + "/u.part"
        let bytes = sampleBytes(20_000)
        var direct = true
        let fd = try FileIO.openForWriting(path, append: false, direct: &direct)
        try Self.withAligned(bytes, offset: 1) { try FileIO.writeDirect(fd, $0, path: path) }
        #expect(!Self.isDirect(fd))
        FileIO.close(fd)
        #expect(readFile(path) == bytes)
    }

    /// A direct write off a block is refused by a file system that checks alignment (ext4: EINVAL, as
    /// from one that wants blocks larger than `FileIO.directBlock`); tmpfs takes it. Either way the
    /// bytes land where the descriptor stood, the ones refused written through the cache from there.
    @Test("a direct write the file system refuses goes on through the cache from where it stood")
    func refusedWrite() throws {
        let folder = temporaryFolder()
        let path = folder + "/r.part"
        let bytes = sampleBytes(3 * FileIO.directBlock + 100)
        var direct = true
        let fd = try FileIO.openForWriting(path, append: false, direct: &direct)
        // As a short write would leave it: the offset off every block size a disk has.
        #expect(lseek(fd, 100, SEEK_SET) == 100)
        try Self.withAligned(bytes) { try FileIO.writeDirect(fd, $0, path: path) }
        #expect(!Self.isDirect(fd))
        FileIO.close(fd)
        #expect(readFile(path) == [UInt8](repeating: 0, count: 100) + bytes)
    }

    @Test("a fresh part that fits the buffer is written direct; a tiny one, a large one and a resumed one are not")
    func whichParts() throws {
        let folder = temporaryFolder()
        let takes = Self.takesDirect(folder)
        for (name, size, expected) in [("fits", 60_000, takes), ("tiny", 100, false), ("large", 600_000, false)] {
            #expect(try Self.writeFresh(name, size: size, in: folder) == expected, "\(name)")
        }
        // A part resumed with a 206 appends to what is there, through the cache.
        let job = DownloadJob(DeliveryAPI.downloadNative(id: "CONT1"), folder: folder, name: "resumed")
        let file = sampleBytes(60_000)
        writeFile(job.partPath, Array(file[..<10_000]))
        let sink = DownloadSink(job: job, url: "u", resumeFrom: 10_000, partExisted: true, onBytes: { _, _, _ in })
        try sink.receiveHead(
            HTTPResponseHead(
                status: 206,
                headers: [
                    HTTPHeader("Content-Range", "bytes 10000-59999/60000"), HTTPHeader("Content-Length", "50000"),
                ]))
        try DownloadSinkValidatorTests.feed(sink, file[10_000...], chunk: 16_384)
        let fd = try sink.finishWriting()
        #expect(!sink.wroteDirect)
        FileIO.close(fd)
        #expect(readFile(job.partPath) == file)
    }

    @Test("a folder where direct writes were slow, not just once, gets its next files through the cache")
    func slowFolder() throws {
        let folder = temporaryFolder()
        try #require(Self.takesDirect(folder), "this file system takes O_DIRECT")
        func write(_ name: String) throws -> Bool { try Self.writeFresh(name, size: 60_000, in: folder) }
        #expect(try write("before"))
        // One slow write is a hiccup; a few show a slow device.
        FileIO.noteSlowDirect(in: folder)
        #expect(!FileIO.directIsSlow(in: folder))
        #expect(try write("hiccup"))
        for _ in 1..<FileIO.slowDirectWritesAllowed { FileIO.noteSlowDirect(in: folder) }
        #expect(FileIO.directIsSlow(in: folder))
        #expect(try !write("after"))
        // Another folder is not affected.
        #expect(!FileIO.directIsSlow(in: temporaryFolder()))
    }
}
