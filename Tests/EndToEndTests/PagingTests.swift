import DeliveryKit
import Foundation
import OCEQCore
import Testing

/// The async page and item sequences walking all 146 items of the sample channel.
@Suite("End to end: paging")
struct PagingTests {
    let server: SampleServer

    init() throws {
        server = try SampleServer()
    }

    /// Every item id in the export, from the files on disk.
    static func idsOnDisk() throws -> Set<String> {
        var ids: Set<String> = []
        let root = SampleServer.contentItems
        for folder in try FileManager.default.contentsOfDirectory(atPath: root) where folder != "VariationSets" {
            for file in try FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
            where file.hasSuffix(".json") {
                ids.insert(String(file.dropLast(".json".count)))
            }
        }
        return ids
    }

    @Test(
        "pages of 50 cover every item exactly once, in 3 requests",
        arguments: [[SortKey](), [.name(.asc)], [.field("type", .desc), .updatedDate(.asc)]])
    func pages(order: [SortKey]) async throws {
        let client = try server.client()
        let request = DeliveryAPI.listAssets().order(order).limit(50)
        var seen: [String] = []
        var offsets: [Int] = []
        var totals: Set<Int?> = []
        for try await page in client.pages(request) {
            offsets.append(page.offset)
            totals.insert(page.totalResults)
            #expect(page.count == page.items.count)
            seen += page.items.map(\.id)
        }
        let onDisk = try Self.idsOnDisk()
        #expect(onDisk.count == 146)
        #expect(offsets == [0, 50, 100])
        #expect(totals == [onDisk.count])
        #expect(seen.count == onDisk.count, "no item twice")
        #expect(Set(seen) == onDisk)
        let lists = server.requests.filter { $0.apiPath == "/items" }
        #expect(lists.count == 3)
        #expect(lists.allSatisfy { $0.target.contains("limit=50") })
    }

    @Test("the item sequence over a filtered search yields each image once, count equal to totalResults")
    func itemSequence() async throws {
        let client = try server.client()
        // fields=all: summaries carry no typeCategory, so only full items tell an asset from an item.
        let request = DeliveryAPI.listAssets().query(try .equal(field: "type", value: "Image")).fields(.all).limit(20)
        let first = try await client.fetch(request)
        let total = try #require(first.totalResults)
        var ids: [String] = []
        for try await asset in client.items(request) {
            #expect(asset.isDigitalAsset)
            ids.append(asset.id)
        }
        let images = try SampleAsset.images()
        #expect(total == images.count)
        #expect(ids.count == total)
        #expect(Set(ids) == Set(images.map(\.id)))
        #expect(server.requests.filter { $0.apiPath == "/items" }.count == 1 + (total + 19) / 20)
    }

    @Test("a sequence started at an offset ends at the last item; a limit over 500 is asked as 500")
    func offsetsAndLimits() async throws {
        let client = try server.client()
        var ids: [String] = []
        for try await asset in client.items(DeliveryAPI.listAssets().order(.name()).starting(at: 140).limit(4)) {
            ids.append(asset.id)
        }
        #expect(ids.count == 6)
        #expect(server.requests.map(\.target).filter { $0.contains("offset=144") }.count == 1)

        var pages = 0
        for try await page in client.pages(DeliveryAPI.listAssets().limit(600)) {
            pages += 1
            #expect(page.items.count == 146 && !page.hasMore)
        }
        #expect(pages == 1)
        #expect(server.requests.last?.target.contains("limit=500") == true)
    }
}
