import ChannelServer
import DeliveryKit
import Dispatch
import Foundation
import OCEQCore
import Testing

@Suite("channel index cache and concurrency")
struct IndexCacheTests {
    let query = SearchRequest(
        query: try! QueryParser.parse("fields.topic eq \"coffee\""), orderBy: [SortKey("name")], countTotal: true
    )

    /// The index files in `directory`; each index also keeps its lock file (`IndexLock`), checked
    /// once here and left out of the lists below.
    func files(_ directory: ScratchDirectory) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        for name in names where name.hasSuffix(".sqlite") { #expect(names.contains(name + ".lock")) }
        return names.filter { !$0.hasSuffix(".lock") }
    }

    @Test("a second index for the same fingerprint reopens the cached file")
    func reuse() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let first = try ChannelIndex(items: IndexTestItems.items, fingerprint: "abc123", cacheDirectory: directory.path)
        #expect(!first.wasCached)
        #expect(first.itemCount == IndexTestItems.items.count)
        #expect(files(directory) == ["index-abc123.sqlite", "index-abc123.sqlite.side"])
        let second = try ChannelIndex(
            items: IndexTestItems.items, fingerprint: "abc123", cacheDirectory: directory.path)
        #expect(second.wasCached)
        #expect(try second.search(query) == first.search(query))
        let ordinals = try second.search(query).ordinals
        #expect(ordinals == [4, 2, 5])
    }

    @Test("a different fingerprint builds another file")
    func otherFingerprint() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        _ = try ChannelIndex(items: IndexTestItems.items, fingerprint: "one", cacheDirectory: directory.path)
        let other = try ChannelIndex(
            items: IndexTestItems.items, fingerprint: "two/../x y", cacheDirectory: directory.path)
        #expect(!other.wasCached)
        #expect(
            files(directory) == [
                "index-one.sqlite", "index-one.sqlite.side", "index-two_.._x_y.sqlite", "index-two_.._x_y.sqlite.side",
            ])
    }

    @Test("a cached file for other items is rebuilt")
    func mismatch() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        _ = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        let fewer = Array(IndexTestItems.items.dropLast())
        let rebuilt = try ChannelIndex(items: fewer, fingerprint: "fp", cacheDirectory: directory.path)
        #expect(!rebuilt.wasCached)
        #expect(rebuilt.itemCount == fewer.count)

        // Same count, other order: ordinals would be wrong, so the ids hash forces a rebuild.
        let reordered = Array(fewer.reversed())
        let again = try ChannelIndex(items: reordered, fingerprint: "fp", cacheDirectory: directory.path)
        #expect(!again.wasCached)
        let result = try again.search(SearchRequest(query: try QueryParser.parse("id eq \"COREA1\"")))
        #expect(result.ordinals == [reordered.count - 1])
        #expect(files(directory) == ["index-fp.sqlite", "index-fp.sqlite.side"])
    }

    @Test("a corrupt cache file is replaced")
    func corrupt() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let path = directory.path + "/index-fp.sqlite"
        try Data("this is not a database, just some bytes".utf8).write(to: URL(fileURLWithPath: path))
        let index = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        #expect(!index.wasCached)
        #expect(try index.search(query).ordinals == [4, 2, 5])
        let reopened = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        #expect(reopened.wasCached)
    }

    @Test("without a cache directory the index file is temporary")
    func temporary() throws {
        var path = ""
        do {
            let index = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: nil)
            path = index.path
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(FileManager.default.fileExists(atPath: path + ".side"))
            #expect(!index.wasCached)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".side"))
    }

    @Test("a side file missing or from another build makes the index rebuilt, never mixed")
    func sideFile() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let path = directory.path + "/index-fp.sqlite"
        let first = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        let expected = try first.search(query)
        #expect(ChannelIndex(reopening: "fp", cacheDirectory: directory.path) != nil)

        // Another build's side file for the same items: its build id does not match.
        let other = ScratchDirectory()
        defer { other.remove() }
        _ = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: other.path)
        try FileManager.default.removeItem(atPath: path + ".side")
        try FileManager.default.copyItem(atPath: other.path + "/index-fp.sqlite.side", toPath: path + ".side")
        #expect(ChannelIndex(reopening: "fp", cacheDirectory: directory.path) == nil)
        let rebuilt = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        #expect(!rebuilt.wasCached)
        #expect(try rebuilt.search(query) == expected)

        try FileManager.default.removeItem(atPath: path + ".side")
        #expect(ChannelIndex(reopening: "fp", cacheDirectory: directory.path) == nil)
        let again = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        #expect(!again.wasCached)
        #expect(try again.search(query) == expected)
        #expect(files(directory) == ["index-fp.sqlite", "index-fp.sqlite.side"])
    }

    @Test("an empty export indexes and searches")
    func empty() throws {
        let index = try ChannelIndex(items: [], fingerprint: "none", cacheDirectory: nil)
        #expect(index.itemCount == 0)
        #expect(try index.search(query) == SearchResult(ordinals: [], total: 0, hasMore: false))
        #expect(
            try index.search(SearchRequest(countTotal: true)) == SearchResult(ordinals: [], total: 0, hasMore: false))
    }

    @Test("concurrent searches from several threads give the sequential answers")
    func concurrent() throws {
        let index = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: nil)
        let texts = [
            "type eq \"Article\"", "fields.topic eq \"coffee\"", "name co \"roasting\"", "fields.title mt \"r?ast*\"",
            "fields.body sm \"rone\"", "fields.author.name eq \"Ana Lima\"", "createdDate ge \"2021-03-01\"",
            "NOT (type eq \"Image\")",
        ]
        let requests = try texts.map {
            SearchRequest(
                query: try QueryParser.parse($0), orderBy: [SortKey("fields.minutes", .desc)],
                countTotal: true)
        }
        let expected = try requests.map { try index.search($0) }
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                let k = (thread + round) % requests.count
                let result = try? index.search(requests[k])
                if result != expected[k] { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
