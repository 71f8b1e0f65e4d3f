import DeliveryKit
import DeliveryTransport
import OCEQCore
import Testing

/// What a download reads of its listing: the rendition picked by name, and the answer without the
/// walk that redacts its links.
@Suite("Download listings: a rendition picked by name, links left as sent")
struct DownloadListingTests {
    static let image: JSON = [
        "id": "CONT1", "type": "Image", "typeCategory": "DigitalAssetType", "name": "a.jpg",
        "fields": [
            "size": 1234,
            "renditions": [
                ["name": "Thumbnail", "type": "responsiveimage", "formats": [["format": "jpg", "size": 10]]],
                [
                    "name": "Medium", "type": "responsiveimage",
                    "formats": [["format": "webp", "size": 20], ["format": "jpg", "size": 30]],
                ],
                ["apiName": "Banner", "formats": [["format": "png"]]],
                ["formats": [["format": "gif"]]],
            ],
        ],
    ]

    @Test("rendition(named:) picks the exact name, else any case, else apiName")
    func renditionNamed() throws {
        let fields = try #require(try Asset(json: Self.image).digitalAsset)
        let expected: [String: String?] = [
            "Medium": "Medium", "medium": "Medium", "MEDIUM": "Medium", "Thumbnail": "Thumbnail", "banner": "Banner",
            "Large": nil, "": nil,
        ]
        for (name, picked) in expected {
            #expect(fields.rendition(named: name)?.name == picked, "\(name)")
        }
        let medium = try #require(fields.rendition(named: "medium"))
        #expect(medium.type == "responsiveimage")
        #expect(medium.formats.map(\.format) == ["webp", "jpg"])
        #expect(medium.format("jpg")?.size == 30)
    }

    @Test("rendition(named:) reads top-level renditions.items, and a content item or summary has none")
    func renditionSources() throws {
        let topLevel = try Asset(json: [
            "id": "CONT2", "type": "Image", "typeCategory": "DigitalAssetType", "fields": ["size": 1],
            "renditions": ["items": [["name": "Small", "formats": [["format": "jpg"]]]]],
        ])
        #expect(topLevel.digitalAsset?.rendition(named: "small")?.name == "Small")
        let article = try Asset(json: [
            "id": "CORE1", "type": "Article", "typeCategory": "ContentType",
            "fields": ["renditions": [["name": "Medium", "formats": [["format": "jpg"]]]]],
        ])
        #expect(article.digitalAsset?.rendition(named: "Medium") == nil)
        let summary = try Asset(json: ["id": "CONT3", "type": "Image", "typeCategory": "DigitalAssetType"])
        #expect(summary.digitalAsset?.rendition(named: "Medium") == nil)
    }

    @Test("a client skipping links reads items without them; the default client redacts them; the log too")
    func skippedLinks() async throws {
        let href = "http://localhost:2112/content/published/api/v1.1/assets/CONT1/Medium?channelToken=123"
        let transport = StubTransport { _ in
            .json(
                #"{"items":[{"id":"CONT1","name":"a","links":[{"href":"\#(href)","rel":"self"}],"#
                    + #""fields":{"renditions":[{"name":"Medium","formats":[{"format":"jpg","links":[{"href":"\#(href)"}]}]}]}}],"#
                    + #""hasMore":false}"#)
        }
        let log = Recorder<RequestLogEntry>()
        let client = try makeClient(transport, log: { log.append($0) })
        let request = DeliveryAPI.listAssets()
        let redacted = try await client.fetchJSON(request)
        #expect(redacted["items"]?[0]?["links"]?[0]?["href"]?.stringValue?.contains("channelToken=REDACTED") == true)
        #expect(client.readsLinks)
        let reader = client.skippingLinks()
        #expect(!reader.readsLinks)
        let skipped = try await reader.fetchJSON(request)
        #expect(skipped["items"]?[0]?["links"] == nil)
        #expect(skipped["items"]?[0]?["name"] == "a")
        let format = skipped["items"]?[0]?["fields"]?["renditions"]?[0]?["formats"]?[0]
        #expect(format == ["format": "jpg"])
        let page = try await reader.fetch(request)
        #expect(page.items.map(\.id) == ["CONT1"])
        #expect(page.items[0].links.isEmpty)
        #expect(log.all.count == 3)
        #expect(log.all.allSatisfy { $0.url.contains("channelToken=REDACTED") && !$0.url.contains("=123") })
    }

    @Test("a client skipping links and metadata reads items without either, and everything else as before")
    func skippedMetadata() async throws {
        let transport = StubTransport { _ in
            .json(
                #"{"items":[{"id":"CONT1","name":"a","links":[],"fields":{"metadata":{"width":"10"},"size":7,"#
                    + #""renditions":[{"name":"Medium","formats":[{"format":"jpg","size":3,"metadata":{"width":"5"}}]}]}}],"#
                    + #""hasMore":false}"#)
        }
        let client = try makeClient(transport)
        let reader = client.skipping(members: ["links", "metadata"])
        #expect(!reader.readsLinks)
        #expect(reader.skippedMembers == ["links", "metadata"])
        let item = try await reader.fetchJSON(DeliveryAPI.listAssets())["items"]?[0]
        #expect(item?["links"] == nil)
        #expect(item?["fields"]?["metadata"] == nil)
        #expect(item?["fields"]?["size"] == 7)
        #expect(item?["fields"]?["renditions"]?[0]?["formats"]?[0] == ["format": "jpg", "size": 3])
        let whole = try await client.fetchJSON(DeliveryAPI.listAssets())["items"]?[0]
        #expect(whole?["fields"]?["metadata"]?["width"] == "10")
    }
}
