import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

@Suite("an index reads the files it checked, whatever happens to their names")
struct IndexFilesTests {
    let query = SearchRequest(
        query: try! QueryParser.parse("fields.topic eq \"coffee\""), orderBy: [SortKey("name")], countTotal: true)

    /// A search on a connection the pool must open now (the idle one is taken by the outer call).
    func searchOnNewConnection(_ index: ChannelIndex) throws -> [String] {
        try index.pool.withConnection { _ in
            try index.pool.withConnection { connection in
                let statement = try connection.prepare("SELECT count(*) FROM store")
                _ = try statement.step()
                return ["\(statement.int64(0))"] + (try index.search(query).ordinals.map(String.init))
            }
        }
    }

    @Test("new connections of an index in use read its own pair after another build replaced or deleted it")
    func pinned() throws {
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let path = directory.path + "/index-fp.sqlite"
        let index = try ChannelIndex(items: IndexTestItems.items, fingerprint: "fp", cacheDirectory: directory.path)
        let expected = try searchOnNewConnection(index)
        #expect(expected.first == String(IndexTestItems.items.count))

        // Another process's build of other items renamed over both names (side file first).
        let other = ScratchDirectory()
        defer { other.remove() }
        _ = try ChannelIndex(
            items: Array(IndexTestItems.items.prefix(2)), fingerprint: "fp", cacheDirectory: other.path)
        for name in ["index-fp.sqlite.side", "index-fp.sqlite"] {
            #expect(rename(other.path + "/" + name, directory.path + "/" + name) == 0)
        }
        #expect(try searchOnNewConnection(index) == expected)

        // Or deleted them.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.removeItem(atPath: path + ".side")
        #expect(try searchOnNewConnection(index) == expected)
    }
}
