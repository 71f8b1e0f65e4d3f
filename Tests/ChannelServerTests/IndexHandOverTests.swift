import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

@Suite("the index build reads each item's fields once and hands them between its two writers")
struct IndexHandOverTests {
    /// Every row of `sql` as text, one string per row.
    func rows(_ index: ChannelIndex, _ sql: String, columns: Int32) throws -> [String] {
        try index.pool.withConnection { connection in
            let statement = try connection.prepare(sql)
            var out: [String] = []
            while try statement.step() {
                out.append((0..<columns).map { statement.text($0) ?? "null" }.joined(separator: "|"))
            }
            return out
        }
    }

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
            let expected = try rows(read, sql, columns: columns)
            #expect(expected.count > 1, "\(sql)")
            #expect(try rows(given, sql, columns: columns) == expected, "\(sql)")
        }
        #expect(try rows(given, "SELECT count(*) FROM store", columns: 1) == ["\(items.count)"])
    }

    @Test("the batch queue gives every value in order to another thread, through a full queue")
    func queueOrder() {
        let queue = BatchQueue<Int>(capacity: 3)
        #expect(queue.poll() == nil)
        let received = Handoff<[Int]>()
        let consumer = Thread {
            var values: [Int] = []
            while true {
                let value = queue.take()
                if value < 0 { break }
                values.append(value)
            }
            received.put(values)
        }
        consumer.start()
        for value in 0..<500 { #expect(queue.put(value)) }
        queue.put(-1)
        #expect(received.take() == Array(0..<500))
    }

    @Test("a consumer that cancels releases a producer waiting for room, and later puts add nothing")
    func queueCancel() {
        let queue = BatchQueue<Int>(capacity: 1)
        #expect(queue.put(1))
        let second = Handoff<Bool>()
        let producer = Thread { second.put(queue.put(2)) }
        producer.start()
        queue.cancel()
        #expect(second.take() == false)
        #expect(queue.put(3) == false)
        #expect(queue.poll() == 1)
        #expect(queue.poll() == nil)
    }
}
