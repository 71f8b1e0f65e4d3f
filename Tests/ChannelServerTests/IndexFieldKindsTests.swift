import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

@Suite("the index build takes the user fields' kinds from the loader")
struct IndexFieldKindsTests {
    @Test("the loader's field kinds equal the index builder's own pass over the loaded items")
    func loaderKinds() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        for export in [ExportFixtures.genA, ExportFixtures.genB, ExportFixtures.genD, ExportFixtures.blog2021Zip] {
            let content = try loadExport([export], cache: cache)
            let loaded = try #require(content.fieldKinds, "no field kinds from \(export)")
            let read = IndexBuilder.fieldKinds(Array(content.items))
            #expect(!loaded.fields.isEmpty)
            #expect(loaded.fields.map(\.key) == read.fields.map(\.key), "\(export)")
            #expect(loaded.fields.map(\.kinds) == read.fields.map(\.kinds), "\(export)")
        }
    }

    @Test("an index built with the loader's field kinds holds what one built without them holds")
    func sameIndex() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let items = Array(content.items)
        let given = try ChannelIndex(
            items: items, fingerprint: "given", cacheDirectory: nil, codec: nil, parts: nil,
            fieldKinds: content.fieldKinds)
        let read = try ChannelIndex(items: items, fingerprint: "read", cacheDirectory: nil)
        let queries: [(String, Int32)] = [
            ("SELECT fid, name, ftscol, kinds FROM fieldnames ORDER BY fid", 4),
            ("SELECT ord, fid, seq, kind, fold, num, ref, full FROM vals ORDER BY ord, fid, seq", 8),
            ("SELECT key, length(body) FROM store ORDER BY key", 2),
            ("SELECT col, term FROM terms ORDER BY col, term", 2),
        ]
        for (sql, columns) in queries {
            let expected = try read.textRows(sql, columns: columns)
            #expect(expected.count > 1, "\(sql)")
            #expect(try given.textRows(sql, columns: columns) == expected, "\(sql)")
        }
        #expect(try given.textRows("SELECT count(*) FROM store", columns: 1) == ["\(items.count)"])
    }
}
