import ChannelServer
import Foundation
import OCEQCore
import Testing

/// Zip bombs and huge files: extraction limits checked while extracting, nothing left on refusal.
@Suite("export limits: zip bombs and huge item files")
struct ZipLimitsTests {
    /// Writes `entries` as a zip in `folder` and loads it with `limits`; returns the error thrown.
    static func refusal(
        _ entries: [ZipBomb.Entry], declaredCount: Int? = nil, limits: ZipLimits, folder: TemporaryFolder
    ) throws -> String? {
        let zip = try folder.write("bomb.zip", Data(ZipBomb.make(entries, declaredCount: declaredCount)))
        var options = ExportLoadOptions(cacheDirectory: folder.path + "/cache")
        options.zipLimits = limits
        do {
            _ = try ExportLoader(options: options).load(paths: [zip])
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// What is left in the extraction cache.
    static func leftovers(_ folder: TemporaryFolder) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/cache")) ?? []
    }

    static let bomb = [
        ZipBomb.Entry(name: "contentexport/metadata.json", zeros: 0),
        ZipBomb.Entry(name: "contentexport/ContentItems/Image/files/CONT01/zeros.bin", zeros: 20 << 20),
    ]

    @Test("a zip expanding past --zip-max-mib is refused while extracting and leaves nothing in the cache")
    func expandedSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var limits = ZipLimits()
        limits.maximumExpandedBytes = 4 << 20
        let error = try #require(try Self.refusal(Self.bomb, limits: limits, folder: folder))
        #expect(error.contains("zip refused: it expands to more than 4 MiB (--zip-max-mib)"))
        #expect(Self.leftovers(folder).isEmpty)
    }

    @Test("a zip expanding more than --zip-max-ratio times what was read is refused mid-entry")
    func ratio() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var limits = ZipLimits()
        limits.maximumRatio = 50  // the hand-made bomb expands about 160:1
        let error = try #require(try Self.refusal(Self.bomb, limits: limits, folder: folder))
        #expect(error.contains("expands more than 50 times its compressed size"))
        #expect(Self.leftovers(folder).isEmpty)
    }

    @Test("a zip with more entries than --zip-max-entries is refused and leaves nothing in the cache")
    func entries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var limits = ZipLimits()
        limits.maximumEntries = 100
        let many = (0..<300).map { ZipBomb.Entry(name: "contentexport/x/\($0)", zeros: 0) }
        let error = try #require(try Self.refusal(many, limits: limits, folder: folder))
        #expect(error.contains("more than 100 entries (--zip-max-entries)"))
        #expect(Self.leftovers(folder).isEmpty)
    }

    @Test("a zip whose end record understates its entries is still refused while extracting")
    func lyingEntryCount() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var limits = ZipLimits()
        limits.maximumEntries = 100
        let many = (0..<300).map { ZipBomb.Entry(name: "contentexport/x/\($0)", zeros: 0) }
        let error = try #require(try Self.refusal(many, declaredCount: 10, limits: limits, folder: folder))
        #expect(error.contains("more than 100 entries (--zip-max-entries)"))
        #expect(Self.leftovers(folder).isEmpty)
    }

    @Test("a zip that is not an export leaves no extraction in the cache")
    func notAnExport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = try #require(
            try Self.refusal([ZipBomb.Entry(name: "readme.txt", zeros: 10)], limits: ZipLimits(), folder: folder))
        #expect(error.contains("not an OCM content export"))
        #expect(Self.leftovers(folder).isEmpty)
    }

    @Test("the hand-made zip is sound: under the limits it extracts whole")
    func soundBomb() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var limits = ZipLimits()
        limits.maximumRatio = 1000
        let small = [
            ZipBomb.Entry(name: "contentexport/metadata.json", zeros: 0),
            ZipBomb.Entry(name: "contentexport/ContentItems/Image/files/CONT01/zeros.bin", zeros: 3 << 20),
        ]
        _ = try Self.refusal(small, limits: limits, folder: folder)
        let extracted = Self.leftovers(folder).filter { !$0.hasPrefix(".") }
        #expect(extracted.count == 1)
        let file =
            folder.path + "/cache/\(extracted.first ?? "")/contentexport/ContentItems/Image/files/CONT01/zeros.bin"
        #expect(FileSystem.fileSize(file) == 3 << 20)
    }

    @Test("an item file over the size bound is skipped unread, with an issue")
    func itemFileSize() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let padding = String(repeating: " ", count: 8192)
        let root = try writeExport(
            in: folder,
            items: [
                "Note/CORE01.json": #"{"id":"CORE01","type":"Note","name":"big","fields":{}}"# + padding,
                "Note/CORE02.json": #"{"id":"CORE02","type":"Note","name":"small","fields":{}}"#,
            ])
        var options = ExportLoadOptions(cacheDirectory: folder.path + "/cache")
        options.maximumItemFileBytes = 4096
        let content = try ExportLoader(options: options).load(paths: [root])
        #expect(content.items.map(\.id) == ["CORE02"])
        #expect(content.issues.contains { $0.message.contains("too large") && $0.file.hasSuffix("CORE01.json") })
    }
}
