import DownloadModule
import Foundation
import OCEQCore
import Testing

/// The manifest's journal: groups of entries appended before their files are named, read by the next
/// run when a run was killed before its manifest listed them.
@Suite("Download manifest journal")
struct ManifestJournalTests {
    static func entry(_ id: String, _ file: String, size: Int64) -> DownloadManifest.Entry {
        .init(assetId: id, kind: .rendition(name: "Medium", format: "jpg"), file: file, size: size, etag: #""e\#(id)""#)
    }

    /// `size` bytes at `folder/name`.
    static func write(_ name: String, size: Int, in folder: String) throws {
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    @Test("entries whose files are there as recorded are added; missing, resized and cut-off ones are not")
    func merge() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var manifest = DownloadManifest()
        manifest.record(Self.entry("CONT0", "kept.jpg", size: 3))
        try manifest.save(folder: folder)
        try Self.write("kept.jpg", size: 3, in: folder)
        try Self.write("named.jpg", size: 10, in: folder)
        try Self.write("other size.jpg", size: 11, in: folder)
        try Self.write("late.jpg", size: 5, in: folder)
        var journal = DownloadManifest.journalLines([
            Self.entry("CONT1", "named.jpg", size: 10), Self.entry("CONT2", "never named.jpg", size: 4),
        ])
        journal += DownloadManifest.journalLines([Self.entry("CONT3", "other size.jpg", size: 10)])
        // A group cut off in the middle (the run was killed while appending it).
        let cut = DownloadManifest.journalLines([Self.entry("CONT4", "late.jpg", size: 5)])
        journal += cut.prefix(cut.count / 2)
        try Data(journal).write(to: URL(fileURLWithPath: DownloadManifest.journalPath(folder: folder)))

        let loaded = try DownloadManifest.load(folder: folder)
        #expect(Set(loaded.entries.values.map(\.file)) == ["kept.jpg", "named.jpg"])
        #expect(loaded.entry(assetId: "CONT1", kind: .rendition(name: "Medium", format: "jpg"))?.etag == #""eCONT1""#)
    }

    @Test("a journal that is a symbolic link is not read")
    func linkedJournal() throws {
        let folder = temporaryFolder()
        let outside = temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try Self.write("named.jpg", size: 10, in: folder)
        try Data(DownloadManifest.journalLines([Self.entry("CONT1", "named.jpg", size: 10)]))
            .write(to: URL(fileURLWithPath: outside + "/journal"))
        try FileManager.default.createSymbolicLink(
            atPath: DownloadManifest.journalPath(folder: folder), withDestinationPath: outside + "/journal")
        #expect(try DownloadManifest.load(folder: folder).entries.isEmpty)
    }
}
