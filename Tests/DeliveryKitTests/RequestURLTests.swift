import DeliveryKit
import DeliveryTransport
import OCEQCore
import Testing

@Suite("URLs as the SDK's tests pin them (delivery-api.md §11)")
struct RequestURLTests {
    static func client(token: String? = "123") throws -> DeliveryClient {
        try makeClient(StubTransport { _ in .json("{}") }, token: token)
    }

    static func url(_ request: some DeliveryRequest, token: String? = "123") throws -> String {
        pathAndQuery(try client(token: token).prepare(request).url)
    }

    static func url(download request: some DownloadRequest, token: String? = "456") throws -> String {
        pathAndQuery(try client(token: token).prepare(download: request).url)
    }

    @Test("1. listAssets with only a token sends the defaults")
    func listDefaults() throws {
        #expect(
            try Self.url(DeliveryAPI.listAssets())
                == "/content/published/api/v1.1/items?channelToken=123&limit=100&offset=0&totalResults=true")
    }

    @Test("2. and 3. readAsset by id and slug")
    func readAsset() throws {
        #expect(
            try Self.url(DeliveryAPI.readAsset(id: "123"))
                == "/content/published/api/v1.1/items/123?channelToken=123&expand=all")
        #expect(
            try Self.url(DeliveryAPI.readAsset(slug: "123"))
                == "/content/published/api/v1.1/items/.by.slug/123?channelToken=123&expand=all")
    }

    @Test("4. two sort keys")
    func twoSortKeys() throws {
        let request = DeliveryAPI.listAssets().order(.field("name", .asc), .field("fields.foo", .desc))
        #expect(
            try Self.url(request)
                == "/content/published/api/v1.1/items?channelToken=123&limit=100&offset=0&orderBy=name:asc;fields.foo:desc&totalResults=true"
        )
    }

    @Test("5. to 7. downloads")
    func downloads() throws {
        #expect(
            try Self.url(download: DeliveryAPI.downloadNative(id: "123"))
                == "/content/published/api/v1.1/assets/123/native?channelToken=456")
        #expect(
            try Self.url(
                download: DeliveryAPI.downloadRendition(
                    id: "123", renditionName: "foo", format: "  foo  ", type: "  bar  "))
                == "/content/published/api/v1.1/assets/123/foo?channelToken=456&format=foo&type=bar")
        #expect(
            try Self.url(
                download: DeliveryAPI.downloadRendition(id: "123", renditionName: "Medium", format: " ", type: nil))
                == "/content/published/api/v1.1/assets/123/Medium?channelToken=456")
        #expect(
            try Self.url(download: DeliveryAPI.downloadThumbnail(id: "123", fileGroup: "Images"))
                == "/content/published/api/v1.1/assets/123/thumbnail?type=uithumbnail&channelToken=456")
        #expect(
            try Self.url(download: DeliveryAPI.downloadThumbnail(id: "123", fileGroup: "Videos"))
                == "/content/published/api/v1.1/assets/123/thumbnail?type=uithumbnail&channelToken=456")
        #expect(
            try Self.url(download: DeliveryAPI.downloadThumbnail(id: "123", fileGroup: "Videos", advancedVideo: true))
                == "/content/published/api/v1.1/assets/123/Thumbnail?format=jpg&type=advancedvideo&channelToken=456")
    }

    @Test("8. to 10. taxonomies and categories")
    func taxonomies() throws {
        #expect(
            try Self.url(DeliveryAPI.listTaxonomies(), token: "456")
                == "/content/published/api/v1.1/taxonomies?channelToken=456&limit=100&offset=0&totalResults=true")
        #expect(
            try Self.url(DeliveryAPI.listTaxonomyCategories(taxonomyId: "4567"))
                == "/content/published/api/v1.1/taxonomies/4567/categories?channelToken=123&limit=100&offset=0&totalResults=true"
        )
        #expect(
            try Self.url(DeliveryAPI.listTaxonomyCategories(taxonomyId: "4567").order(.name(.asc), .position(.desc)))
                == "/content/published/api/v1.1/taxonomies/4567/categories?channelToken=123&limit=100&offset=0&orderBy=name:asc;position:desc&totalResults=true"
        )
        #expect(
            try Self.url(DeliveryAPI.readTaxonomyCategory(taxonomyId: "123", categoryId: "456"))
                == "/content/published/api/v1.1/taxonomies/123/categories/456?channelToken=123")
        #expect(
            try Self.url(DeliveryAPI.readTaxonomy(id: "123"))
                == "/content/published/api/v1.1/taxonomies/123?channelToken=123")
    }

    @Test("the blog sample's article query, fully encoded")
    func blogQuery() throws {
        let request = DeliveryAPI.listAssets()
            .query(
                QueryBuilder(node: try .equal(field: "type", value: "OCEGettingStartedArticle"))
                    .and(try .equal(field: "fields.topic", value: "CORE0123"))
            )
            .order(.field("fields.published_date", .desc)).limit(50)
        #expect(
            try Self.url(request, token: "TOKEN")
                == "/content/published/api/v1.1/items?channelToken=TOKEN&limit=50&offset=0&orderBy=fields.published_date:desc&q=type%20eq%20%22OCEGettingStartedArticle%22%20and%20fields.topic%20eq%20%22CORE0123%22&totalResults=true"
        )
    }

    @Test("query values are encoded like URLQueryItem, except + which becomes %2B")
    func encoding() throws {
        let request = DeliveryAPI.listAssets().query(rawText: #"name co "a+b&c=d#e%f;g:h/i?j,k é""#)
        let url = try Self.url(request)
        #expect(url.contains("&q=name%20co%20%22a%2Bb%26c%3Dd%23e%25f;g:h/i?j,k%20%C3%A9%22&"))
    }

    @Test("the request's own channel token wins over the client's; without any none is sent")
    func tokens() throws {
        #expect(try Self.url(DeliveryAPI.readTaxonomy(id: "1").channelToken("mine")).hasSuffix("?channelToken=mine"))
        #expect(
            try Self.url(DeliveryAPI.readTaxonomy(id: "1"), token: nil) == "/content/published/api/v1.1/taxonomies/1")
    }

    @Test("every list builder")
    func builders() throws {
        let request = DeliveryAPI.listAssets()
            .query(try QueryNode.equal(field: "type", value: "Image"))
            .defaultQuery("coffee", "42")
            .fields("name", "fields.bar")
            .expand("fields.author")
            .links("self", "next")
            .limit(25).starting(at: 50).totalResults(false)
            .language("fr-FR")
        let items = try request.endpoint().queryItems(defaultToken: Secret("T")).map(\.description)
        #expect(
            items == [
                "channelToken=T", "default=coffee, 42", "expand=fields.author", "fields=name,fields.bar", "limit=25",
                "links=self,next", "offset=50", #"q=(type eq "Image") and language eq "fr-FR""#, "totalResults=false",
            ])
        #expect(try DeliveryAPI.listAssets().language("de").renderedQuery() == #"language eq "de""#)
        #expect(try DeliveryAPI.listAssets().fields(.all).endpoint().items.contains(QueryItem("fields", "all")))
        #expect(try DeliveryAPI.listAssets().fields("a", "all").endpoint().items.contains(QueryItem("fields", "all")))
        #expect(try !DeliveryAPI.listAssets().fields(.none).endpoint().items.contains { $0.name == "fields" })
        #expect(try !DeliveryAPI.readAsset(id: "1").expand(.none).endpoint().items.contains { $0.name == "expand" })
        #expect(
            try DeliveryAPI.readAsset(id: "1").expand("fields.a", "fields.b").endpoint().items == [
                QueryItem("expand", "fields.a,fields.b")
            ])
        #expect(
            try Self.url(DeliveryAPI.readAsset(id: "1").version(.v1)).hasPrefix("/content/published/api/v1/items/1?"))
        #expect(
            try DeliveryAPI.readTaxonomyCategory(taxonomyId: "t", categoryId: "c").fields(.keywords, .synonyms)
                .endpoint().items
                == [QueryItem("fields", "keywords,synonyms")])
    }

    @Test("variations")
    func variations() throws {
        #expect(
            try Self.url(DeliveryAPI.listVariations(id: "CORE1"))
                == "/content/published/api/v1.1/items/CORE1/variations?channelToken=123")
        #expect(
            try Self.url(DeliveryAPI.listVariations(id: "CORE1", type: "language"))
                == "/content/published/api/v1.1/items/CORE1/variations/language?channelToken=123")
        #expect(
            try Self.url(DeliveryAPI.readVariation(id: "CORE1", type: "language", value: "fr-FR"))
                == "/content/published/api/v1.1/items/CORE1/variations/language/fr-FR?channelToken=123&expand=all")
        #expect(
            try Self.url(DeliveryAPI.readVariation(slug: "my-slug", type: "language", value: "fr-FR"))
                == "/content/published/api/v1.1/items/.by.slug/my-slug/variations/language/fr-FR?channelToken=123&expand=all"
        )
    }

    @Test("path segments are encoded once and dot segments cannot be formed")
    func pathEncoding() throws {
        #expect(
            try Self.url(DeliveryAPI.readAsset(slug: "a b/c?d"))
                == "/content/published/api/v1.1/items/.by.slug/a%20b%2Fc%3Fd?channelToken=123&expand=all")
        #expect(try Self.url(DeliveryAPI.readAsset(id: "..")).hasPrefix("/content/published/api/v1.1/items/%2E%2E?"))
    }

    @Test("empty ids and bad limits are refused before any network call")
    func refused() {
        func expectRefused(_ message: String, _ build: () throws(DeliveryError) -> Endpoint) {
            #expect(throws: DeliveryError.invalidRequest(message)) { try build() }
        }
        expectRefused("Asset ID cannot be empty.") { () throws(DeliveryError) in
            try DeliveryAPI.readAsset(id: "").endpoint()
        }
        expectRefused("Slug cannot be empty.") { () throws(DeliveryError) in
            try DeliveryAPI.readAsset(slug: "").endpoint()
        }
        expectRefused("Asset identifier cannot be empty.") { () throws(DeliveryError) in
            try DeliveryAPI.downloadNative(id: "").endpoint()
        }
        expectRefused("Rendition name cannot be empty.") { () throws(DeliveryError) in
            try DeliveryAPI.downloadRendition(id: "1", renditionName: "").endpoint()
        }
        expectRefused("Taxonomy ID cannot be empty.") { () throws(DeliveryError) in
            try DeliveryAPI.readTaxonomy(id: "").endpoint()
        }
        expectRefused("Category ID cannot be empty.") { () throws(DeliveryError) in
            try DeliveryAPI.readTaxonomyCategory(taxonomyId: "t", categoryId: "").endpoint()
        }
        expectRefused("limit must be between 0 and 500, got 501") { () throws(DeliveryError) in
            try DeliveryAPI.listAssets().limit(501).endpoint()
        }
        expectRefused("offset must be 0 or more, got -1") { () throws(DeliveryError) in
            try DeliveryAPI.listTaxonomies().starting(at: -1).endpoint()
        }
    }

    @Test(
        "server addresses are bare origins, or end in the delivery API's base",
        arguments: [
            ("https://example.com", "https://example.com"), ("HTTP://Example.com:8080/", "http://example.com:8080"),
            ("http://[::1]:9000", "http://[::1]:9000"),
            // The delivery API's base, as `oceq serve` prints it, names the same server.
            ("http://127.0.0.1:8080/content/published/api/v1.1", "http://127.0.0.1:8080"),
            ("https://h.example/content/published/api/v1.1/", "https://h.example"),
        ])
    func addresses(text: String, origin: String) throws {
        #expect(try ServerAddress(text).origin == origin)
    }

    @Test(
        "paths, credentials and other schemes are refused",
        arguments: [
            "https://h/content", "ftp://h", "https://u:p@h", "h", "http://h:0", "http://h:x",
            "https://h/content/preview/api/v1.1", "https://h/content/published/api/v1.1/items",
        ])
    func badAddresses(text: String) {
        #expect(throws: DeliveryError.self) { try ServerAddress(text) }
    }

    @Test("prepared requests carry the user agent and the bearer, and print redacted")
    func prepared() throws {
        let client = try makeClient(StubTransport { _ in .json("{}") }, token: "sekrit", bearer: "b3arer")
        let prepared = try client.prepare(DeliveryAPI.listAssets())
        #expect(prepared.headers.contains(HTTPHeader("User-Agent", "oceq/\(DeliveryKitInfo.version)")))
        #expect(prepared.headers.contains(HTTPHeader("Authorization", "Bearer b3arer")))
        #expect(prepared.redactedHeaders.contains(HTTPHeader("Authorization", "Bearer REDACTED")))
        #expect(prepared.url.contains("channelToken=sekrit"))
        #expect(prepared.redactedURL.contains("channelToken=REDACTED"))
        #expect(!"\(prepared)".contains("sekrit"))
    }
}

@Suite("Thumbnail requests from assets")
struct ThumbnailFromAssetTests {
    @Test(
        "only a video with advancedVideoInfo gets the advanced thumbnail",
        arguments: [
            (
                #"{"id":"C1","typeCategory":"DigitalAssetType","fileGroup":"Images","fields":{}}"#,
                "thumbnail?type=uithumbnail"
            ),
            (
                #"{"id":"C1","typeCategory":"DigitalAssetType","fileGroup":"Videos","fields":{}}"#,
                "thumbnail?type=uithumbnail"
            ),
            (
                #"{"id":"C1","typeCategory":"DigitalAssetType","fileGroup":"Videos","fields":{"advancedVideoInfo":{"provider":"K"}}}"#,
                "Thumbnail?format=jpg&type=advancedvideo"
            ),
            // A null advancedVideoInfo is none (it read as one until session 31).
            (
                #"{"id":"C1","typeCategory":"DigitalAssetType","fileGroup":"Videos","fields":{"advancedVideoInfo":null}}"#,
                "thumbnail?type=uithumbnail"
            ),
        ])
    func thumbnail(json: String, suffix: String) throws {
        let asset = try Asset(json: try JSON.parse(json))
        let endpoint = try DeliveryAPI.downloadThumbnail(for: asset).endpoint()
        let url = endpoint.url(on: try ServerAddress("http://h"), defaultToken: nil).url
        #expect(url == "http://h/content/published/api/v1.1/assets/C1/" + suffix)
    }
}
