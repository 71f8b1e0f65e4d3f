// A served channel reads its items from the index file (ItemStore), and a restart with an
// unchanged export reopens that file by the export's stamp (ExportStamp) without reading items:
// the answers must be those of the channel held in memory, and a changed file must be noticed.

import ChannelServer
import Foundation
import Glibc
import OCEQCore
import Testing

@Suite("serve: items stored in the index, restart by export stamp")
struct ItemStoreTests {
    static let token = "store-token"
    static let content = "assets/contenttemplate/Content Template of KnowledgeTemplate"

    static func options(_ paths: [String], cache: String) -> ServeOptions {
        var options = ServeOptions()
        options.paths = paths
        options.token = Secret(token)
        options.cacheDirectory = cache
        options.responseCacheMiB = 0
        return options
    }

    static func body(_ router: DeliveryRouter, _ path: String) -> String {
        let target = "/content/published/api/v1.1" + path + (path.contains("?") ? "&" : "?") + "channelToken=" + token
        let response = router.handle(ServerRequest(method: "GET", target: target))
        guard case .bytes(let bytes) = response.body else { return "status \(response.status), no bytes" }
        return "\(response.status) " + String(decoding: bytes, as: UTF8.self)
    }

    /// The paths whose answers are compared: every item (full, expanded, by slug) and list pages.
    static func paths(_ items: [ExportItem]) -> [String] {
        var paths = [
            "/items?limit=100", "/items?limit=100&fields=ALL&expand=all", "/items?q=name co \"a\"&orderBy=name:desc",
        ]
        for item in items {
            paths.append("/items/\(item.id)")
            paths.append("/items/\(item.id)?expand=all")
            if let slug = item.slug { paths.append("/items/.by.slug/\(slug.uppercased())") }
        }
        return paths.map { $0.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "\"", with: "%22") }
    }

    @Test("the stored channel answers as the channel in memory, first load and restart alike")
    func sameAnswers() throws {
        let cache = try TemporaryFolder("oceq-store-cache")
        defer { cache.remove() }
        let paths = [ExportFixtures.blog2021Zip, ExportFixtures.genD]
        let memory = try loadExport(paths, cache: cache)
        let items = Array(memory.items)
        #expect(items.count > 5)
        let index = try ChannelIndex(items: items, fingerprint: memory.fingerprint, cacheDirectory: nil)
        let inMemory = DeliveryRouter(
            content: memory, index: index, configuration: ServerConfiguration(channelToken: Self.token))

        let first = try ChannelService.load(Self.options(paths, cache: cache.path + "/serve"))
        #expect(!first.index.wasCached)
        #expect(first.content.items.store != nil, "served items are read from the index file")
        let restarted = try ChannelService.load(Self.options(paths, cache: cache.path + "/serve"))
        #expect(restarted.index.wasCached)
        #expect(restarted.content.fingerprint == memory.fingerprint)
        #expect(restarted.content.issues == memory.issues)
        #expect(restarted.content.contentTypes.keys.sorted() == memory.contentTypes.keys.sorted())
        #expect(restarted.content.variationSets == memory.variationSets)
        #expect(restarted.content.taxonomies == memory.taxonomies)
        #expect(try restarted.content.items.digitalAssetCount() == memory.items.digitalAssetCount())
        for path in Self.paths(items) {
            let expected = Self.body(inMemory, path)
            #expect(expected.hasPrefix("200 "), "\(path)")
            #expect(Self.body(first.router, path) == expected, "\(path)")
            #expect(Self.body(restarted.router, path) == expected, "\(path)")
        }
    }

    @Test("summaries read from the items table are the stored items' id, type, name and description")
    func summariesFromTheIndex() throws {
        let cache = try TemporaryFolder("oceq-store-cache")
        defer { cache.remove() }
        let paths = [ExportFixtures.blog2021Zip, ExportFixtures.genD]
        let served = try ChannelService.load(Self.options(paths, cache: cache.path + "/serve"))
        let list = served.content.items
        let store = try #require(list.store)
        let ordinals = Array((0..<list.count).reversed()) + [0, 0]
        let summaries = try list.summaries(at: ordinals)
        #expect(try summaries == list.items(at: ordinals).map(ItemSummary.init))
        #expect(summaries.allSatisfy { !$0.id.isEmpty && !$0.type.isEmpty } && summaries.contains { !$0.name.isEmpty })
        #expect(try ItemList(Array(list)).summaries(at: ordinals) == summaries, "a list in memory gives the same")
        #expect(throws: IndexStorageError.self) { try store.summaries(at: [list.count]) }
    }

    @Test("an item file rewritten in place with its old mtime is found by the check after the start")
    func changedFileIsNoticed() throws {
        let export = try SymlinkContainmentTests.copiedExport("oceq-store-export")
        let cache = try TemporaryFolder("oceq-store-cache")
        defer {
            export.remove()
            cache.remove()
        }
        let first = try ChannelService.load(Self.options([export.path], cache: cache.path))
        #expect(first.exportCheck == nil, "a build read every file")
        let unchanged = try ChannelService.load(Self.options([export.path], cache: cache.path))
        #expect(unchanged.index.wasCached)
        #expect(unchanged.exportCheck?.run() == true)

        let item = try #require(first.content.items.first { !$0.isDigitalAsset })
        let file =
            export.path + "/" + Self.content + "/ContentItems/" + (item.typeFolder ?? item.type) + "/"
            + item.id + ".json"
        var before = stat()
        #expect(stat(file, &before) == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        // Same length, same inode: only the change time (and the content) tells the file changed.
        let renamed = String(repeating: "Z", count: item.name.utf8.count)
        #expect(!renamed.isEmpty)
        #expect(text.contains("\"\(item.name)\""))
        try text.replacingOccurrences(of: "\"\(item.name)\"", with: "\"\(renamed)\"")
            .write(toFile: file, atomically: false, encoding: .utf8)
        // Put the old modification time back, as `cp -p` or `touch -r` would.
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)

        // The listing is unchanged, so the restart serves the index; its check finds the change.
        let stale = try ChannelService.load(Self.options([export.path], cache: cache.path))
        #expect(stale.index.wasCached)
        let check = try #require(stale.exportCheck)
        #expect(check.run() == false)
        // The next start reads the export again.
        let again = try ChannelService.load(Self.options([export.path], cache: cache.path))
        #expect(again.exportCheck == nil)
        #expect(again.content.fingerprint != first.content.fingerprint)
        #expect(again.content.items.first { $0.id == item.id }?.name == renamed)

        // A file replaced by a new one (another inode) is seen before serving.
        try FileManager.default.removeItem(atPath: file)
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let replaced = try ChannelService.load(Self.options([export.path], cache: cache.path))
        #expect(replaced.exportCheck == nil)
        #expect(replaced.content.items.first { $0.id == item.id }?.name == item.name)
    }

    @Test("an export moved to another folder serves its files from there")
    func movedExport() throws {
        let export = try SymlinkContainmentTests.copiedExport("oceq-store-export")
        let moved = try TemporaryFolder("oceq-store-moved")
        let cache = try TemporaryFolder("oceq-store-cache")
        defer {
            export.remove()
            moved.remove()
            cache.remove()
        }
        let first = try ChannelService.load(Self.options([export.path], cache: cache.path))
        try FileManager.default.removeItem(atPath: moved.path)
        try FileManager.default.moveItem(atPath: export.path, toPath: moved.path)
        let second = try ChannelService.load(Self.options([moved.path], cache: cache.path))
        #expect(second.index.wasCached, "the same content reuses its index")
        #expect(second.content.fingerprint == first.content.fingerprint)
        let face = try #require(second.content.items.first { $0.id == SymlinkContainmentTests.face })
        #expect(face.nativeFile?.hasPrefix(moved.path + "/") == true)
        #expect(face.sourceFile.hasPrefix(moved.path + "/"))
        let target =
            "/content/published/api/v1.1/assets/\(SymlinkContainmentTests.face)/native?channelToken=" + Self.token
        #expect(second.router.handle(ServerRequest(method: "GET", target: target)).status == 200)
    }
}
