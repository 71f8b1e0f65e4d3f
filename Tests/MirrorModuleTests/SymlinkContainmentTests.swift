// A mirror never writes, renames or removes through a symbolic link planted inside DIR: a rerun
// over a tree whose folders are links stops with one line naming the link, and the folder the link
// points to is left as it was.

import Foundation
import OCEQCore
import Testing

@Suite("mirror: links planted in DIR", .serialized)
struct SymlinkContainmentTests {
    static let samplePath = repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path
    static let selection = "(list type=Image limit 3)"

    /// Mirrors the selection into a new folder; the folder.
    func mirrored(_ label: String) async throws -> String {
        let folder = temporaryFolder(label)
        let source = try openExport(Self.samplePath)
        let first = await runScript("mirror \"\(folder)\" \(Self.selection)", on: source)
        #expect(first.code == 0, "\(first.output)\(first.errors)")
        return folder
    }

    /// A folder outside DIR holding one file; its listing.
    func victim(_ label: String) throws -> (path: String, listing: [String]) {
        let folder = temporaryFolder(label)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/precious.txt"))
        return (folder, filesUnder(folder))
    }

    @Test("a native file's folder replaced by a link: the rerun stops and the linked folder is untouched")
    func filesFolderLink() async throws {
        let folder = try await mirrored("links-files")
        let outside = try victim("links-files-victim")
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: outside.path)
        }
        let files = folder + "/contentexport/ContentItems/Image/files"
        let id = try #require(try FileManager.default.contentsOfDirectory(atPath: files).sorted().first)
        try FileManager.default.removeItem(atPath: files + "/" + id)
        try FileManager.default.createSymbolicLink(atPath: files + "/" + id, withDestinationPath: outside.path)

        let rerun = await runScript("mirror \"\(folder)\" \(Self.selection)", on: try openExport(Self.samplePath))
        #expect(rerun.code != 0)
        #expect(rerun.errors.contains("files/\(id) is a symbolic link"), "\(rerun.output)\(rerun.errors)")
        #expect(filesUnder(outside.path) == outside.listing)
        #expect(FileManager.default.contents(atPath: outside.path + "/precious.txt") == Data("keep me".utf8))
    }

    @Test("a type folder replaced by a link: no item file is written outside DIR")
    func typeFolderLink() async throws {
        let folder = try await mirrored("links-type")
        let outside = try victim("links-type-victim")
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: outside.path)
        }
        let type = folder + "/contentexport/ContentItems/Image"
        try FileManager.default.removeItem(atPath: type)
        try FileManager.default.createSymbolicLink(atPath: type, withDestinationPath: outside.path)

        let rerun = await runScript("mirror \"\(folder)\" \(Self.selection)", on: try openExport(Self.samplePath))
        #expect(rerun.code != 0)
        #expect(rerun.errors.contains("ContentItems/Image is a symbolic link"), "\(rerun.output)\(rerun.errors)")
        #expect(filesUnder(outside.path) == outside.listing)
    }

    @Test("the contained folder refuses a link on the way and writes nothing through it")
    func containedDirectoryRefusesLinks() throws {
        let root = temporaryFolder("links-contained")
        let outside = try victim("links-contained-victim")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside.path)
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: outside.path)
        let folder = try ContainedDirectory(root: root)
        #expect(throws: FileSystemError.self) { try folder.write(Array("x".utf8), to: "out/new.txt") }
        #expect(throws: FileSystemError.self) { try folder.folder("out/sub", create: true) }
        #expect(throws: FileSystemError.self) { try folder.openForWriting("out/precious.txt", append: true) }
        #expect(!folder.remove("out/precious.txt"))
        #expect(folder.links() == ["out"])
        #expect(folder.removeTree("out"))
        #expect(filesUnder(outside.path) == outside.listing)
        try folder.write(Array("y".utf8), to: "in/new.txt")
        #expect(try folder.read("in/new.txt") == Array("y".utf8))
    }
}
