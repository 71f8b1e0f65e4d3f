// A channel export of N small digital assets (type `File`), written for a test: deterministic
// bytes of 300 to 3 000 bytes each, with names that repeat (every 10th name is shared) and some
// hostile ones (separators, `..`, control characters, Windows device names), while each native
// file lies on disk as `files/<id>/blob.bin` (the loader takes a folder's single file when the
// item's name is not a file there). The test's ground truth is `files`: id, name and bytes.

import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A synthetic export on disk.
struct SyntheticExport {
    /// One asset.
    struct File {
        var id: String
        var name: String
        var bytes: [UInt8]
    }

    /// The export's folder (to serve).
    let path: String
    /// Its assets, by id order.
    let files: [File]

    /// Writes `count` assets under a new temporary folder.
    init(count: Int) throws {
        path = temporaryFolder("oceq-dl-export")
        let root = path + "/contentexport"
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/ContentItems/File/files", withIntermediateDirectories: true)
        try Data(#"{"export-version":"1.1","groups":1,"group0":["File"]}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/metadata.json"))
        let hostile = ["../../escape.bin", "/etc/passwd", "a\nb\u{1B}[2J.bin", "CON", "nul.txt", ".hidden", ".."]
        // One pool of random bytes; each file is a slice of it, its first 8 bytes its index.
        var random = SeededGenerator(seed: 20_261_129)
        var pool = [UInt8]()
        pool.reserveCapacity(1 << 16)
        for _ in 0..<(1 << 13) { withUnsafeBytes(of: random.next()) { pool.append(contentsOf: $0) } }
        var files: [File] = []
        for index in 0..<count {
            let id = String(format: "CONT%032X", 0xD000_0000 + index)
            let name: String
            if index % 10 == 5 {
                name = "shared name.bin"
            } else if index % 50 == 7 {
                name = hostile[(index / 50) % hostile.count]
            } else {
                name = "file-\(index).bin"
            }
            let size = 300 + Int(random.next() % 2700)
            let start = Int(random.next() % UInt64(pool.count - size))
            var bytes = Array(pool[start..<(start + size)])
            withUnsafeBytes(of: UInt64(index).littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
            let item: JSON = [
                "id": .string(id), "type": "File", "typeCategory": "DigitalAssetType", "name": .string(name),
                "description": .string("synthetic file \(index)"), "slug": .string("file-\(index)"),
                "fileGroup": "Files",
                "mimeType": "application/octet-stream", "fileExtension": "bin", "language": "en-US",
                "translatable": false,
                "createdDate": ["value": "2024-01-01T00:00:00.000Z", "timezone": "UTC"],
                "updatedDate": ["value": "2024-01-01T00:00:00.000Z", "timezone": "UTC"],
                "fields": [
                    "size": .int(size), "mimeType": "application/octet-stream", "fileGroup": "Files",
                    "fileType": "bin", "native": ["links": []],
                ],
            ]
            try SyntheticExport.write(root + "/ContentItems/File/\(id).json", JSONWriter().bytes(item))
            let folder = root + "/ContentItems/File/files/\(id)"
            guard mkdir(folder, 0o755) == 0 else { throw CocoaError(.fileWriteUnknown) }
            try SyntheticExport.write(folder + "/blob.bin", bytes)
            files.append(File(id: id, name: name, bytes: bytes))
        }
        self.files = files
    }

    /// Writes a new file with plain POSIX calls (Foundation's are much slower for thousands of files).
    static func write(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Removes the export.
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
