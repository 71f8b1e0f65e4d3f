import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Issue 16 points 4, 6 and 7 over HTTP: the metadata catalog every `describedby` link names,
/// rendition sizes that match the bytes served, and taxonomies read from the export.
@Suite("Metadata catalog, rendition sizes and taxonomies", .serialized)
struct CatalogTests {
    /// The sample channel and the real 2021 export (bundled in the test fixtures).
    static func channels() throws -> [(name: String, channel: TestChannel)] {
        [
            ("sample", try TestChannel(paths: [SampleChannelTests.sampleFolder])),
            ("2021 export", try TestChannel()),
        ]
    }

    /// GET an absolute href this server wrote (it carries the channel token already).
    static func follow(_ href: String, _ channel: TestChannel) async throws -> RawHTTPResponse {
        let prefix = "http://127.0.0.1:\(channel.port)"
        let target = href.hasPrefix(prefix) ? String(href.dropFirst(prefix.count)) : href
        return try await RawHTTPClient.send(
            port: channel.port, method: "GET", target: target)
    }

    static func links(_ value: JSON?, rel: String) -> [String] {
        (value?["links"]?.arrayValue ?? []).filter { $0["rel"]?.stringValue == rel }.compactMap {
            $0["href"]?.stringValue
        }
    }

    /// Every item of the channel, full.
    static func allItems(_ channel: TestChannel) async throws -> [JSON] {
        let list = try await channel.json("/items?limit=500&fields=all")
        var items: [JSON] = []
        for summary in list["items"]?.arrayValue ?? [] {
            items.append(try await channel.json("/items/\(summary["id"]!.stringValue!)"))
        }
        return items
    }

    @Test("every describedby link of every item and listing answers 200 with a JSON Schema")
    func describedByResolves() async throws {
        for (name, channel) in try Self.channels() {
            var hrefs: Set<String> = []
            let list = try await channel.json("/items?limit=500&fields=all")
            hrefs.formUnion(Self.links(list, rel: "describedby"))
            let items = try await Self.allItems(channel)
            #expect(!items.isEmpty, "\(name)")
            for item in items {
                let found = Self.links(item, rel: "describedby")
                #expect(found.count == 1, "\(name): \(item["id"]?.stringValue ?? "")")
                hrefs.formUnion(found)
            }
            let taxonomies = try await channel.json("/taxonomies")
            hrefs.formUnion(Self.links(taxonomies, rel: "describedby"))
            for taxonomy in taxonomies["items"]?.arrayValue ?? [] {
                let id = taxonomy["id"]!.stringValue!
                await hrefs.formUnion(Self.links(try channel.json("/taxonomies/\(id)"), rel: "describedby"))
                let categories = try await channel.json("/taxonomies/\(id)/categories")
                hrefs.formUnion(Self.links(categories, rel: "describedby"))
                for category in categories["items"]?.arrayValue ?? [] {
                    let one = try await channel.json("/taxonomies/\(id)/categories/\(category["id"]!.stringValue!)")
                    hrefs.formUnion(Self.links(one, rel: "describedby"))
                }
            }
            #expect(hrefs.count > items.count, "\(name)")
            for href in hrefs {
                let response = try await Self.follow(href, channel)
                #expect(response.status == 200, "\(name): \(href)")
                #expect(response.header("Content-Type")?.hasPrefix("application/") == true)
                let schema = try JSON.parse(response.body)
                #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", "\(name): \(href)")
            }
        }
    }

    @Test("an item's catalog entry describes its type: fields, data types, references, sortable")
    func itemTypeDescription() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let list = try await channel.json("/items?q=type%20eq%20%22OCEGettingStartedArticle%22&limit=1")
        let id = try #require(list["items"]?[0]?["id"]?.stringValue)
        let schema = try await channel.json("/metadata-catalog/items/\(id)")
        #expect(schema["title"] == "OCEGettingStartedArticle")
        #expect(schema["x-ocm-typeCategory"] == "ContentType")
        let fields = try #require(schema["x-ocm-fields"]?.arrayValue)
        let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0["name"]!.stringValue!, $0) })
        #expect(byName["published_date"]?["datatype"] == "datetime")
        #expect(byName["published_date"]?["sortable"] == true)
        #expect(byName["author"]?["datatype"] == "reference")
        #expect(byName["author"]?["referenceTypes"] == ["OCEGettingStartedAuthor"])
        #expect(byName["author"]?["sortable"] == false)
        #expect(byName["article_content"]?["datatype"] == "largetext")
        // The same facts as JSON Schema annotations on the property.
        let property = schema["properties"]?["fields"]?["properties"]?["author"]
        #expect(property?["x-ocm-datatype"] == "reference")
        // The collection lists every type.
        let collection = try await channel.json("/metadata-catalog/items")
        let types = try #require(collection["x-ocm-types"]?.arrayValue)
        #expect(types.contains("OCEGettingStartedArticle") && types.contains("Image"))
        #expect(collection["$defs"]?["OCEGettingStartedTopic"]?["x-ocm-fields"] != nil)
        #expect(try await channel.get("/metadata-catalog/items/NOPE").status == 404)
        #expect(try await channel.get("/metadata-catalog/nothing").status == 404)
    }

    @Test("every image rendition's advertised size equals the bytes served")
    func renditionSizes() async throws {
        for (name, channel) in try Self.channels() {
            var checked = 0
            var native = 0
            for item in try await Self.allItems(channel) where item["typeCategory"] == "DigitalAssetType" {
                let fields = try #require(item["fields"])
                let nativeHref = try #require(fields["native"]?["links"]?[0]?["href"]?.stringValue)
                let nativeBody = try await Self.follow(nativeHref, channel).body
                #expect(fields["size"]?.intValue == nativeBody.count, "\(name): native of \(item["id"]!)")
                for rendition in fields["renditions"]?.arrayValue ?? [] {
                    for format in rendition["formats"]?.arrayValue ?? [] {
                        // 0 is OCM's "not generated yet"; any other size is the bytes served.
                        guard let size = format["size"]?.intValue, size > 0 else { continue }
                        let href = try #require(format["links"]?[0]?["href"]?.stringValue)
                        let body = try await Self.follow(href, channel).body
                        #expect(body.count == size, "\(name): \(href)")
                        if body == nativeBody { native += 1 }
                        checked += 1
                    }
                }
            }
            #expect(checked > 0 && native == checked, "\(name): \(checked) sized renditions, \(native) native")
        }
    }

    @Test("thumbnail?type=uithumbnail follows the size the export declares")
    func declaredUIThumbnail() async throws {
        let folder = try TemporaryFolder("oceq-uithumbnail")
        defer { folder.remove() }
        let copy = folder.path + "/gen-a-2018"
        try FileManager.default.copyItem(atPath: ExportFixtures.genA, toPath: copy)
        let photo = "CONTD86002B8BA2545DDAA444CBF1A69D332"  // 40 × 30 JPEG, declared 150 × 113
        let file = copy + "/contentexport/ContentItems/DigitalAsset/\(photo).json"
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"width\": \"150\"", with: "\"width\": \"20\"")
            .replacingOccurrences(of: "\"height\": \"113\"", with: "\"height\": \"15\"")
            .replacingOccurrences(of: "\"width\":\"150\"", with: "\"width\":\"20\"")
            .replacingOccurrences(of: "\"height\":\"113\"", with: "\"height\":\"15\"")
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let channel = try TestChannel(paths: [copy])
        let engine = VipsRenditions(directory: NSTemporaryDirectory())
        func decoded(_ path: String) async throws -> (width: Int, height: Int)? {
            let response = try await channel.get(path)
            #expect(response.status == 200)
            let out = NSTemporaryDirectory() + "oceq-ui-\(UUID().uuidString).img"
            try Data(response.body).write(to: URL(fileURLWithPath: out))
            defer { try? FileManager.default.removeItem(atPath: out) }
            return engine.nativeSize(of: out)
        }
        let ui = try #require(try await decoded("/assets/\(photo)/thumbnail?type=uithumbnail"))
        #expect(ui.width == 20 && ui.height == 15)
        // The system Thumbnail keeps its own rule (never upscaled: the native 40 × 30).
        let system = try #require(try await decoded("/assets/\(photo)/Thumbnail?format=jpg"))
        #expect(system.width == 40 && system.height == 30)
    }

    // MARK: - Taxonomies

    /// The sample's taxonomy and its categories by name.
    static func sampleTaxonomy(_ channel: TestChannel) async throws -> (id: String, categories: [String: String]) {
        let list = try await channel.json("/taxonomies")
        let id = try #require(list["items"]?[0]?["id"]?.stringValue)
        let categories = try await channel.json("/taxonomies/\(id)/categories?limit=100")
        var byName: [String: String] = [:]
        for category in categories["items"]?.arrayValue ?? [] {
            byName[category["name"]!.stringValue!] = category["id"]!.stringValue!
        }
        return (id, byName)
    }

    @Test("taxonomies and categories have the recorded shapes, each with its links")
    func taxonomyShapes() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let list = try await channel.json("/taxonomies?totalResults=true")
        #expect(list["count"] == 1 && list["totalResults"] == 1 && list["limit"] == 100)
        let taxonomy = try #require(list["items"]?[0])
        #expect(
            Set(taxonomy.objectValue!.keys)
                == ["id", "name", "description", "shortName", "createdDate", "updatedDate", "links"])
        #expect(taxonomy["shortName"] == "CSG")
        #expect(Self.links(list, rel: "describedby").first?.contains("/metadata-catalog/taxonomies?") == true)
        let (id, names) = try await Self.sampleTaxonomy(channel)
        #expect(names.count == 7)

        let categories = try await channel.json("/taxonomies/\(id)/categories")
        for category in categories["items"]?.arrayValue ?? [] {
            #expect(
                Set(category.objectValue!.keys) == ["id", "name", "description", "apiName", "position", "links"])
            let href = try #require(Self.links(category, rel: "self").first)
            #expect(href.contains("/taxonomies/\(id)/categories/\(category["id"]!.stringValue!)?channelToken="))
        }
        // One category read alone: parent and ancestors (root first).
        let ethiopia = try await channel.json("/taxonomies/\(id)/categories/\(names["Ethiopia"]!)")
        #expect(ethiopia["parent"]?["name"] == "Africa")
        #expect(ethiopia["ancestors"]?.arrayValue?.map { $0["name"]! } == ["Origins", "Africa"])
        #expect(ethiopia["apiName"] == "csg-origins-africa-ethiopia")
        #expect(try await channel.get("/taxonomies/\(id)/categories/NOPE").status == 404)
    }

    @Test("categories honour q, orderBy and fields")
    func categorySearch() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let (id, names) = try await Self.sampleTaxonomy(channel)
        func found(_ query: String) async throws -> [String] {
            let list = try await channel.json("/taxonomies/\(id)/categories?\(query)")
            return (list["items"]?.arrayValue ?? []).map { $0["name"]!.stringValue! }
        }
        await #expect(try found("q=(name%20eq%20%22africa%22)") == ["Africa"])
        await #expect(try found("q=(parent.id%20eq%20%22\(names["Origins"]!)%22)") == ["Africa", "Americas"])
        await #expect(
            try found("q=(ancestors.name%20eq%20%22Origins%22)").sorted() == ["Africa", "Americas", "Ethiopia"])
        await #expect(try found("q=(name%20co%20%22espresso%20filter%22)").sorted() == ["Espresso", "Filter"])
        await #expect(try found("q=(name%20sw%20%22Am%22)") == ["Americas"])
        await #expect(
            try found("q=(ancestors.apiName%20eq%20%22csg-methods%22%20AND%20NOT%20name%20eq%20%22Filter%22)")
                == ["Espresso"])
        await #expect(try found("orderBy=name:desc").first == "Origins")
        await #expect(try found("orderBy=name:asc").first == "Africa")
        await #expect(try found("orderBy=position:asc;name:asc").prefix(2) == ["Africa", "Espresso"])
        let withAncestors = try await channel.json(
            "/taxonomies/\(id)/categories?fields=ancestors&q=name%20eq%20%22Ethiopia%22")
        #expect(withAncestors["items"]?[0]?["ancestors"]?.arrayValue?.count == 2)
        #expect(withAncestors["items"]?[0]?["parent"] == nil)
        #expect(try await channel.get("/taxonomies/\(id)/categories?q=(colour%20eq%20%22red%22)").status == 400)
    }

    @Test("expand=children or expand=all inlines each category's children, by position, on a search and a read")
    func categoryChildren() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let (id, names) = try await Self.sampleTaxonomy(channel)
        for expand in ["children", "all", "ALL", "fields.x,children"] {
            let list = try await channel.json("/taxonomies/\(id)/categories?expand=\(expand)")
            var childrenOf: [String: [String]] = [:]
            for category in list["items"]?.arrayValue ?? [] {
                let children = try #require(category["children"], "expand=\(expand): \(category)")
                #expect(children["hasMore"] == false && children["offset"] == 0)
                let items = children["items"]?.arrayValue ?? []
                #expect(children["count"]?.intValue == items.count)
                childrenOf[category["name"]!.stringValue!] = items.map { $0["name"]!.stringValue! }
            }
            #expect(childrenOf["Origins"] == ["Africa", "Americas"], "expand=\(expand)")
            #expect(childrenOf["Africa"] == ["Ethiopia"])
            #expect(childrenOf["Ethiopia"] == [])
            #expect(list["items"]?[0]?["parent"] == nil, "expand adds children only")
        }
        let read = try await channel.json("/taxonomies/\(id)/categories/\(names["Methods"]!)?expand=children")
        #expect(read["children"]?["items"]?.arrayValue?.map { $0["name"]! } == ["Espresso", "Filter"])
        let plain = try await channel.json("/taxonomies/\(id)/categories?expand=fields.x")
        #expect(plain["items"]?[0]?["children"] == nil, "another expand name inlines nothing")
    }

    @Test("items show their categories with nodes, and q searches them")
    func itemTaxonomies() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let (id, names) = try await Self.sampleTaxonomy(channel)
        func search(_ field: String, _ category: String) async throws -> [JSON] {
            let q = "\(field)%20eq%20%22\(names[category]!)%22"
            return try await channel.json("/items?q=\(q)&fields=all")["items"]?.arrayValue ?? []
        }
        // nodes.id: the category or any descendant; categories.id: the category itself.
        let origins = try await search("taxonomies.categories.nodes.id", "Origins")
        #expect(origins.count == 1)
        await #expect(try search("taxonomies.categories.nodes.id", "Africa").count == 1)
        await #expect(try search("taxonomies.categories.id", "Africa").isEmpty)
        await #expect(try search("taxonomies.categories.id", "Ethiopia").count == 1)
        await #expect(try search("taxonomies.categories.nodes.id", "Methods").count == 2)

        // The hit carries its taxonomies block, as a `fields=all` search does.
        let block = try #require(origins.first?["taxonomies"]?["items"]?[0])
        #expect(block["id"]?.stringValue == id && block["shortName"] == "CSG")
        let categories = try #require(block["categories"]?["items"]?.arrayValue)
        let ethiopia = try #require(categories.first { $0["name"] == "Ethiopia" })
        #expect(ethiopia["nodes"]?.arrayValue?.map { $0["name"]! } == ["Origins", "Africa", "Ethiopia"])
        #expect(Self.links(ethiopia, rel: "self").first?.contains("/categories/\(names["Ethiopia"]!)?") == true)
        #expect(Self.links(block, rel: "self").first?.contains("/taxonomies/\(id)?") == true)

        // A single read shows it with expand=all only.
        let itemId = try #require(origins.first?["id"]?.stringValue)
        #expect(try await channel.json("/items/\(itemId)")["taxonomies"] == nil)
        let expanded = try await channel.json("/items/\(itemId)?expand=all")
        #expect(expanded["taxonomies"]?["items"]?[0]?["categories"]?["items"]?.arrayValue?.count == 2)
        // GET /items/{id}/taxonomies answers the same block with a self link.
        let own = try await channel.json("/items/\(itemId)/taxonomies")
        #expect(own["items"] == expanded["taxonomies"]?["items"])
        #expect(Self.links(own, rel: "self").first?.contains("/items/\(itemId)/taxonomies?") == true)
    }
}
