import ChannelServer
import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// Searches, reads, variations and taxonomies of the sample channel through DeliveryKit's
/// requests, client and libcurl transport.
@Suite("End to end: reading the sample channel")
struct ReadTests {
    static let espressoTopic = "CORE141A251016B815034E10D61C414604D1"
    static let cappuccino = "CORE921024665929F922DB67CC505229ABC5"

    let server: SampleServer

    init() throws {
        server = try SampleServer()
    }

    /// Article ids of a topic from the export files, newest first by instant.
    static func articlesOnDisk(topic: String) throws -> [String] {
        let folder = SampleServer.contentItems + "/OCEGettingStartedArticle"
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var dated: [(id: String, instant: Date)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".json") {
            let json = try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
            guard json["fields"]?["topic"]?["id"]?.stringValue == topic else { continue }
            let value = try #require(json["fields"]?["published_date"]?["value"]?.stringValue)
            dated.append((json["id"]!.stringValue!, try #require(formatter.date(from: value))))
        }
        return dated.sorted { $0.instant > $1.instant }.map(\.id)
    }

    @Test("a search with q, orderBy on a date field and fields=all returns the topic's articles newest first")
    func search() async throws {
        let client = try server.client()
        let request = DeliveryAPI.listAssets()
            .query(
                QueryBuilder(node: try .equal(field: "type", value: "OCEGettingStartedArticle"))
                    .and(try .equal(field: "fields.topic", value: Self.espressoTopic))
            )
            .order(.field("fields.published_date", .desc))
            .fields(.all)
            .limit(50)
        let page = try await client.fetch(request)
        let expected = try Self.articlesOnDisk(topic: Self.espressoTopic)
        #expect(expected.count == 10)
        #expect(page.items.map(\.id) == expected)
        #expect(page.totalResults == expected.count && page.count == expected.count && !page.hasMore)
        for item in page.items {
            #expect(item.isContentItem && item.type == "OCEGettingStartedArticle")
            #expect(item.fields?["published_date"] != nil, "fields=all brings the fields of \(item.id)")
            #expect(try item.customField("topic", as: Asset.self).id == Self.espressoTopic)
        }
        // The ordering trap: an hour later as an instant, though its text sorts first the other way.
        let names = page.items.map(\.name)
        let steaming = try #require(names.firstIndex(of: "Steaming Milk for Silky Microfoam"))
        let anatomy = try #require(names.firstIndex(of: "Anatomy of an Espresso Shot"))
        #expect(steaming < anatomy)
    }

    @Test("a raw query with a language and several order keys; summaries without fields=all")
    func languageAndSummaries() async throws {
        let client = try server.client()
        let request = DeliveryAPI.listAssets()
            .query(rawText: #"type eq "OCEGettingStartedArticle""#)
            .language("fr-FR")
            .order(.name(.asc), .field("fields.published_date", .desc))
        let page = try await client.fetch(request)
        #expect(page.totalResults == 4)
        #expect(page.items.map(\.name) == page.items.map(\.name).sorted())
        #expect(page.items.map(\.name).first == "L'art du café filtre")
        for item in page.items {
            #expect(item.fields == nil, "a list without fields=all brings summaries")
            #expect(item.link(rel: "self")?.href.contains("/items/\(item.id)") == true)
        }
        let reread = try await client.fetch(DeliveryAPI.readAsset(id: page.items[0].id))
        #expect(reread.language == "fr-FR")
    }

    @Test("read by id expands only the asked reference; read by slug finds the same item")
    func readByIdAndSlug() async throws {
        let client = try server.client()
        let article = try await client.fetch(DeliveryAPI.readAsset(id: Self.cappuccino).expand("fields.author"))
        #expect(article.id == Self.cappuccino && article.slug == "reussir-son-cappuccino")
        let author = try article.customField("author", as: Asset.self)
        #expect(author.name == "Priya Natarajan")
        #expect(author.fields != nil, "fields.author is expanded")
        let topic = try article.customField("topic", as: Asset.self)
        #expect(topic.id == Self.espressoTopic && topic.fields == nil, "fields.topic stays a reference")

        let bySlug = try await client.fetch(DeliveryAPI.readAsset(slug: "reussir-son-cappuccino"))
        #expect(bySlug.id == Self.cappuccino)
        #expect(try bySlug.customField("topic", as: Asset.self).fields != nil, "expand=all by default")

        let image = try #require(try SampleAsset.images().first)
        let asset = try await client.fetch(DeliveryAPI.readAsset(id: image.id))
        #expect(asset.isDigitalAsset)
        #expect(asset.digitalAsset?.width == image.width && asset.digitalAsset?.height == image.height)
        #expect(asset.digitalAsset?.rendition(named: "Medium")?.format("webp") != nil)
    }

    @Test("variations: the set, the set of one type and the item in one variation")
    func variations() async throws {
        let client = try server.client()
        let sets = try await client.fetch(DeliveryAPI.listVariations(id: Self.cappuccino))
        let language = try #require(sets.first { $0.varType == "language" })
        #expect(language.items.map(\.id).contains(Self.cappuccino))
        #expect(language.items.first { $0.id == Self.cappuccino }?.value == "fr-FR")

        let set = try await client.fetch(DeliveryAPI.listVariations(id: Self.cappuccino, type: "language"))
        #expect(set.items.map(\.value) == language.items.map(\.value))

        let variant = try await client.fetch(
            DeliveryAPI.readVariation(id: Self.cappuccino, type: "language", value: "fr-FR"))
        #expect(variant.id == Self.cappuccino && variant.language == "fr-FR")
    }

    @Test("taxonomies: the sample's one taxonomy is listed, and reading an unknown one is a typed 404")
    func taxonomies() async throws {
        let client = try server.client()
        let page = try await client.fetch(DeliveryAPI.listTaxonomies())
        #expect(page.items.map(\.shortName) == ["CSG"] && !page.hasMore)
        #expect(page.totalResults == 1)
        var pages = 0
        for try await _ in client.pages(DeliveryAPI.listTaxonomies()) { pages += 1 }
        #expect(pages == 1)
        let error = await #expect(throws: DeliveryError.self) {
            try await client.fetch(DeliveryAPI.readTaxonomy(id: "NO-SUCH-TAXONOMY"))
        }
        guard case .http(let http)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(http.status == 404)
    }

    @Test("an unknown id is a typed 404 naming the redacted URL, for reads and downloads")
    func unknownId() async throws {
        let client = try server.client()
        let missing = "CORE00000000000000000000000000000000"
        let error = await #expect(throws: DeliveryError.self) {
            try await client.fetch(DeliveryAPI.readAsset(id: missing))
        }
        guard case .http(let http)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(http.status == 404 && http.errorCode == "OCE-DELIVERY-NOT-FOUND")
        #expect(http.detail?.contains(missing) == true)
        #expect(http.url.contains("/items/\(missing)") && http.url.contains("channelToken=REDACTED"))
        #expect(!http.description.contains(server.token))

        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let job = DownloadJob(
            DeliveryAPI.downloadNative(id: "CONT00000000000000000000000000000000"), folder: folder, name: "x.bin")
        let download = await #expect(throws: DeliveryError.self) { try await client.download(job) }
        guard case .http(let downloadError)? = download else {
            Issue.record("expected an HTTP error, got \(String(describing: download))")
            return
        }
        #expect(downloadError.status == 404)
        #expect(folderEntries(folder).isEmpty, "a failed download leaves no file: \(folderEntries(folder))")
    }

    @Test("a wrong channel token is a typed 403 with OCM's detail, and no download file")
    func wrongToken() async throws {
        let client = try server.client(token: "not-the-token-31f9")
        let error = await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.listAssets()) }
        guard case .http(let http)? = error else {
            Issue.record("expected an HTTP error, got \(String(describing: error))")
            return
        }
        #expect(http.status == 403)
        #expect(http.title == "Forbidden")
        #expect(http.detail == "Channel Token is incorrect or missing in the request")
        #expect(http.errorCode == "OCE-DELIVERY-CHANNEL-TOKEN")
        #expect(!http.description.contains("not-the-token-31f9"))

        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let image = try #require(try SampleAsset.images().first)
        let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: image.name)
        let download = await #expect(throws: DeliveryError.self) { try await client.download(job) }
        if case .http(let downloadError)? = download {
            #expect(downloadError.status == 403 && downloadError.errorCode == "OCE-DELIVERY-CHANNEL-TOKEN")
        } else {
            Issue.record("expected an HTTP error, got \(String(describing: download))")
        }
        #expect(folderEntries(folder).isEmpty)
    }
}
