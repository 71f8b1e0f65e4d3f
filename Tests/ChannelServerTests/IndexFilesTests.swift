import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@testable import ChannelServer

@Suite("processes sharing a cache folder build an index once and keep reading it")
struct IndexFilesTests {
    let query = SearchRequest(
        query: try! QueryParser.parse("fields.topic eq \"coffee\""), orderBy: [SortKey("name")], countTotal: true)

    /// A search on connections the pool must open now: the idle ones are closed first, and the one
    /// opened for the outer call is taken while the inner one opens.
    func searchOnNewConnection(_ index: ChannelIndex) throws -> [String] {
        index.pool.drain()
        return try index.pool.withConnection { _ in
            try index.pool.withConnection { connection in
                let statement = try connection.prepare("SELECT count(*) FROM store")
                _ = try statement.step()
                return ["\(statement.int64(0))"] + (try index.search(query).ordinals.map(String.init))
            }
        }
    }

    @Test("builders of one index at once: one builds, the others wait and reuse it; every one keeps answering")
    func concurrentBuilds() async throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let path = directory.path
        // Separate opens of the lock file conflict as separate processes' would (flock is per open file).
        let outcomes = try await OffPool.run { () throws -> [[String]] in
            let results = Locked<[Result<(index: ChannelIndex, built: Bool), any Error>]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                let result = Result { () throws -> (index: ChannelIndex, built: Bool) in
                    let index = try ChannelIndex(
                        items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: path)
                    return (index: index, built: !index.wasCached)
                }
                results.withLock { $0.append(result) }
            }
            let indexes = try results.withLock { $0 }.map { try $0.get() }
            #expect(indexes.count(where: \.built) == 1, "one build; the others reused it")
            return try indexes.map { try searchOnNewConnection($0.index) }
        }
        #expect(outcomes.first?.first == String(IndexTestItems.items.count))
        #expect(Set(outcomes.map { $0.joined(separator: ",") }).count == 1)
    }

    @Test("a connection opened after the pair's files were renamed follows them")
    func renamedPair() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let index = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        let expected = try searchOnNewConnection(index)
        for name in ["index-fp.sqlite", "index-fp.sqlite.side"] {
            #expect(rename(directory.path + "/" + name, directory.path + "/moved-" + name) == 0)
        }
        #expect(try searchOnNewConnection(index) == expected)
    }
}
