import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

@Suite("the index build stores items while the loader finishes later ones")
struct IndexPipelineTests {
    /// What an item holds once finished, as text, for comparing two loads.
    func summary(_ item: ExportItem) -> String {
        let taxonomies = item.raw["taxonomies"].map { String(decoding: JSONWriter().compactBytes($0), as: UTF8.self) }
        return [
            item.id, item.slug ?? "-", String(decoding: item.storedFields, as: UTF8.self),
            item.referenceFields.sorted().joined(separator: ","), taxonomies ?? "-",
        ].joined(separator: "|")
    }

    @Test("the loader hands on every final item once, in order, and batches change nothing")
    func batches() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        for export in [ExportFixtures.genA, ExportFixtures.genB, ExportFixtures.blog2021Zip] {
            let loader = ExportLoader(options: ExportLoadOptions(cacheDirectory: cache.path))
            let whole = try loader.load(paths: [export])
            var merged: (fingerprint: String, ids: [String])?
            var handed: [ExportItem] = []
            var batchCount = 0
            let batched = try loader.load(loader.locate(paths: [export]), batchSize: 2) { fingerprint, items in
                merged = (fingerprint, items.map(\.id))
                return { batch in
                    batchCount += 1
                    handed += batch
                }
            }
            let items = Array(whole.items)
            #expect(items.count > 2, "\(export)")
            #expect(batchCount == (items.count + 1) / 2, "\(export)")
            #expect(merged?.fingerprint == whole.fingerprint, "\(export)")
            #expect(merged?.ids == items.map(\.id), "\(export)")
            #expect(batched.fingerprint == whole.fingerprint, "\(export)")
            #expect(Array(batched.items).map(summary) == items.map(summary), "\(export)")
            #expect(handed.map(summary) == items.map(summary), "\(export)")
            #expect(batched.issues == whole.issues, "\(export)")
            #expect(whole.ordinals == IndexBuild.ordinals(items), "\(export)")
            #expect(batched.fieldKinds?.fields.map(\.key) == whole.fieldKinds?.fields.map(\.key), "\(export)")
        }
    }

    @Test("an index begun before the items are final holds what one built after the load holds")
    func sameIndex() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let loader = ExportLoader(options: ExportLoadOptions(cacheDirectory: cache.path + "/exports"))
        var pending: PendingIndex?
        let content = try loader.load(loader.locate(paths: [ExportFixtures.blog2021Zip]), batchSize: 2) {
            fingerprint, items in
            pending = try? PendingIndex(
                fingerprint: fingerprint, items: items, cacheDirectory: cache.path + "/index",
                codec: ItemCodec(roots: []))
            return pending?.finished
        }
        let items = Array(content.items)
        let piped = try ChannelIndex(
            pending: #require(pending), items: items, fingerprint: content.fingerprint, parts: [1, 2, 3],
            fieldKinds: content.fieldKinds, ordinals: content.ordinals)
        #expect(!piped.wasCached)
        let after = try ChannelIndex(
            items: items, fingerprint: "after", cacheDirectory: nil, codec: nil, parts: [1, 2, 3],
            fieldKinds: content.fieldKinds)
        let queries: [(String, Int32)] = [
            ("SELECT fid, name, ftscol, kinds FROM fieldnames ORDER BY fid", 4),
            ("SELECT * FROM items ORDER BY ord", Int32(IndexSchema.itemColumnNames.count + 1)),
            ("SELECT ord, fid, seq, kind, fold, num, ref, full FROM vals ORDER BY ord, fid, seq", 8),
            ("SELECT key, hex(body) FROM store ORDER BY key", 2),
            ("SELECT col, term FROM terms ORDER BY col, term", 2),
        ]
        for (sql, columns) in queries {
            let expected = try after.textRows(sql, columns: columns)
            #expect(expected.count > 1, "\(sql)")
            #expect(try piped.textRows(sql, columns: columns) == expected, "\(sql)")
        }
        #expect(try piped.textRows("SELECT count(*) FROM store", columns: 1) == ["\(items.count + 1)"])
        // Reopened from the cache by the same items, not built again.
        let reopened = try ChannelIndex(
            items: items, fingerprint: content.fingerprint, cacheDirectory: cache.path + "/index", codec: nil,
            parts: nil)
        #expect(reopened.wasCached)
    }

    @Test("a build abandoned before it is finished leaves no files and no lock behind")
    func abandoned() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let items = IndexTestItems.items
        var pending: PendingIndex? = try PendingIndex(
            fingerprint: "fp", items: items, cacheDirectory: cache.path, codec: ItemCodec(roots: []))
        pending?.finished?(items[..<2])
        pending = nil
        #expect(!cache.files().contains { $0.hasSuffix(".part") })
        // The lock is free: a build of the same index in this process goes ahead.
        let index = try ChannelIndex(items: items, fingerprint: "fp", cacheDirectory: cache.path)
        #expect(!index.wasCached)
        #expect(index.itemCount == items.count)
    }
}
