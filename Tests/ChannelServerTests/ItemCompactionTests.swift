import OCEQCore
import Testing

@testable import ChannelServer

/// How an `ExportItem` keeps its dates, source file and reference field names compact (a large
/// build holds every item), without changing what they read as.
@Suite("Compact export items")
struct ItemCompactionTests {
    private static func date(_ value: JSON, _ zone: JSON?) -> JSON {
        var members: [String: JSON] = ["value": value]
        if let zone { members["timezone"] = zone }
        return .object(members)
    }

    @Test(
        "a canonical {value, timezone} is packed and reads back the same, bytes included",
        arguments: [
            "2015-01-01T00:00:00.000Z", "2020-06-18T13:50:16.101Z", "9999-12-31T23:59:59.999Z",
            "0000-01-01T00:00:00.000Z",
        ])
    func packed(value: String) {
        for zone in ["UTC", "America/Los_Angeles", ""] {
            let json = Self.date(.string(value), .string(zone))
            let stored = StoredDate(json)
            guard case .packed = stored else {
                Issue.record("\(value) \(zone) was not packed")
                continue
            }
            #expect(stored.json == json)
            #expect(stored.compactJSON == JSONWriter().compactBytes(json))
        }
    }

    @Test("any other shape is kept as JSON text and reads back the same")
    func text() {
        let others: [JSON] = [
            Self.date("2015-01-01T00:00:00.000+05:30", "Asia/Kolkata"),
            Self.date("2015-01-01T00:00:00Z", "UTC"),
            Self.date("2015-01-01T00:00:00.00aZ", "UTC"),
            Self.date("2015-01-01 00:00:00.000Z", "UTC"),
            Self.date("2015-01-01T00:00:00.000Z", nil),
            Self.date("2015-01-01T00:00:00.000Z", 5),
            Self.date("soon", "UTC"),
            .object(["value": "2015-01-01T00:00:00.000Z", "timezone": "UTC", "description": "launch"]),
            "2015-01-01T00:00:00.000Z",
            .null,
        ]
        for json in others {
            let stored = StoredDate(json)
            #expect(stored == .text(JSONWriter().compactBytes(json)), "\(json)")
            #expect(stored.json == json)
        }
    }

    @Test("an item's dates read back as set, through the item store's codec too")
    func itemDates() throws {
        let created = Self.date("2021-03-04T05:06:07.089Z", "Europe/Paris")
        let updated = Self.date("2021-03-04T05:06:07+01:00", "Europe/Paris")
        let item = ExportItem(
            id: "CORE1", type: "T", typeCategory: "ContentType", name: "n", createdDate: created, updatedDate: updated)
        #expect(item.createdDate == created)
        #expect(item.updatedDate == updated)
        let codec = ItemCodec(roots: [])
        let decoded = try codec.encode(item).withUnsafeBytes { try codec.decode($0) }
        #expect(decoded.createdDate == created)
        #expect(decoded.updatedDate == updated)
        #expect(codec.encode(decoded) == codec.encode(item))
    }

    @Test(
        "sourceFile reads back as set; a file named after the id keeps no name of its own",
        arguments: [
            ("/exports/a/ContentItems/T/CORE1.json", true), ("/exports/a/ContentItems/T/other.json", false),
            ("CORE1.json", true), ("/CORE1.json", true), ("loose", false), ("", false), ("dir/", false),
        ])
    func sourceFile(path: String, namedAfterID: Bool) {
        var item = ExportItem(id: "CORE1", type: "T", typeCategory: "ContentType", name: "n", sourceFile: path)
        #expect(item.sourceFile == path)
        #expect((item.sourceName == nil) == namedAfterID)
        item.sourceFile = path
        #expect(item.sourceFile == path)
    }

    @Test("the items of a folder share its path, and items with the same reference fields one set")
    func sharing() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let posts = content.items.filter { $0.type == "Starter-Blog-Post" }
        try #require(posts.count >= 2)
        #expect(
            posts.allSatisfy { $0.sourceName == nil && $0.sourceFile.hasSuffix("/Starter-Blog-Post/\($0.id).json") })
        let folders = Set(posts.map { storage(of: $0.sourceFolder ?? "") })
        #expect(folders.count == 1 && folders.allSatisfy { $0 != nil })
        let references = posts.map(\.referenceFields)
        #expect(references.allSatisfy { $0 == references[0] && !$0.isEmpty })
        #expect(Set(references.map { unsafeBitCast($0, to: UInt.self) }).count == 1)
    }

    @Test(
        "the parsers reuse a window of slots and the merge still gets every file once, in order",
        arguments: [(1, 1), (3, 2), (7, 4), (64, 64)])
    func parseWindow(chunk: Int, window: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let count = 300
        var jobs: [ItemJob] = []
        for number in 0..<count {
            let id = "CORE\(number)"
            _ = try folder.write(
                "ContentItems/T/\(id).json", #"{"id":"\#(id)","type":"T","name":"item \#(number)","fields":{}}"#)
            jobs.append(
                ItemJob(
                    rootIndex: 0, root: folder.path, resolvedRoot: folder.path, folder: "T", fileName: id + ".json"))
        }
        jobs.append(jobs[5])  // read twice: both reach the merge
        var merged: [String] = []
        ExportLoader.parseAll(jobs, typesByRoot: [[:]], limit: 1 << 20, chunk: chunk, window: window) {
            merged.append($0.item?.id ?? "-")
        }
        #expect(merged == (0..<count).map { "CORE\($0)" } + ["CORE5"])
    }

    @Test("an asset's file facts are held out of line, shared by copies and copied on write")
    func assetFacts() {
        var content = ExportItem(id: "CORE1", type: "T", typeCategory: "ContentType", name: "n")
        content.nativeFile = nil
        content.imageSize = nil
        #expect(content.asset == nil)

        var asset = ExportItem(
            id: "CONT1", type: "Image", typeCategory: "DigitalAssetType", name: "a.jpg", nativeFile: "/e/a.jpg",
            fileExtension: "jpg", nativeSize: 10, imageSize: ImageSize(width: 4, height: 3))
        let box = asset.asset.map(ObjectIdentifier.init)
        asset.exportRoot = "/e"
        #expect(asset.asset.map(ObjectIdentifier.init) == box)
        var copy = asset
        #expect(copy.asset.map(ObjectIdentifier.init) == box)
        copy.nativeFile = "/f/b.jpg"
        copy.nativeSize = nil
        #expect(copy.asset.map(ObjectIdentifier.init) != box)
        #expect(asset.nativeFile == "/e/a.jpg" && asset.nativeSize == 10 && asset.exportRoot == "/e")
        #expect(copy.nativeFile == "/f/b.jpg" && copy.nativeSize == nil && copy.exportRoot == "/e")
        #expect(copy.fileExtension == "jpg" && copy.imageSize == ImageSize(width: 4, height: 3))
    }

    @Test("a chunk's fields are moved into one buffer, each item reading what it read before")
    func packedFields() {
        let job = ItemJob(rootIndex: 0, root: "/r", resolvedRoot: "/r", folder: "T", fileName: "x.json")
        let fields: [[String: JSON]] = [["a": 1], [:], ["b": "two", "c": [3, 4]]]
        var parsed = fields.map {
            ParsedItem(
                job: job, item: ExportItem(id: "CORE1", type: "T", typeCategory: "ContentType", name: "n", fields: $0),
                digest: ContentHasher.digest(of: []))
        }
        parsed.insert(ParsedItem(job: job, digest: ContentHasher.digest(of: [])), at: 1)
        ItemReader.packFields(&parsed)
        let items = parsed.compactMap(\.item)
        #expect(items.map(\.fields) == fields)
        let addresses = items.map { $0.storedFields.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        for index in 1..<items.count {
            #expect(addresses[index] == addresses[index - 1] + UInt(items[index - 1].storedFields.count))
        }
    }

    /// The address of a native string's bytes (nil for a small string, held inline).
    private func storage(of text: String) -> UInt? {
        text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
    }
}
