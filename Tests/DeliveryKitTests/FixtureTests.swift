import DeliveryKit
import FoundationEssentials
import OCEQCore
import Testing

/// Every fixture of `Fixtures/` (real server responses kept by Oracle's SDK) and what it decodes to.
@Suite("OCM fixtures decode")
struct FixtureTests {
    @Test("DeliverySearchResponse.json: a page of 11 summaries")
    func searchResponse() throws {
        let page = try DeliveryAPI.listAssets().decode(try fixture("DeliverySearchResponse.json"))
        #expect(page.hasMore == false)
        #expect(page.offset == 0)
        #expect(page.count == 11)
        #expect(page.limit == 11)
        #expect(page.totalResults == 11)
        #expect(page.items.count == 11)
        #expect(page.links.map(\.rel) == ["self", "canonical", "describedby", "first", "last"])
        #expect(page.items.filter(\.isContentItem).count == 5)
        #expect(page.items.filter(\.isDigitalAsset).count == 6)
        let first = page.items[0]
        #expect(first.id == "CORE683CEAF70E15494487E447B1A45094EC")
        #expect(first.name == "Button Notification")
        #expect(first.type == "OCE_AR_Button")
        #expect(first.fields == nil)
        #expect(
            first.link(rel: "self")?.href.hasSuffix(
                "/items/CORE683CEAF70E15494487E447B1A45094EC?channelToken=bc4e1d3f8b624f07aceb9f2ad87972bd") == true)
        #expect(throws: CustomFieldError.incompleteAsset(id: first.id)) { try first.customField("x", as: String.self) }
    }

    @Test("singleContentItem.json: one field of each data type")
    func singleContentItem() throws {
        let item = try DeliveryAPI.readAsset(id: "x").decode(try fixture("singleContentItem.json"))
        #expect(item.id == "COREF626EC6D55534DA08D5E644ED3F81DAB")
        #expect(item.kind == .contentItem)
        #expect(item.typeCategory == nil)
        #expect(item.type == "MyTestContentItem")
        #expect(item.slug == "1481786051613-fabtestcontentitem")
        #expect(item.language == "en-US")
        #expect(item.translatable == true)
        #expect(item.createdDate?.value == "2020-06-18T13:50:16.101Z")
        #expect(item.createdDate?.timezone == "UTC")
        #expect(item.createdDate?.date == Date(timeIntervalSince1970: 1_592_488_216.101))
        #expect(item.links.map(\.rel) == ["self", "canonical", "describedby"])
        #expect(item.links[2].mediaType == "application/schema+json")
        #expect(item.customFields.count == 9)
        #expect(try item.customField("textfield") as String == "blah")
        #expect(try item.customField("largetextfield") as String == "blah blah blah blah blah blah blah blah")
        #expect(try item.customField("numberfield") as Int == 2112)
        #expect(try item.customField("numberfield") as Double == 2112)
        #expect(try item.customField("decimalfield") as Double == 21.12)
        #expect(try item.customField("booleanfield") as Bool == true)
        #expect(try item.customField("datefield") as Date == Date(timeIntervalSince1970: 1_592_373_600))
        #expect(
            try item.customField("datefield") as DeliveryDate
                == DeliveryDate(value: "2020-06-17T00:00:00.000-06:00", timezone: "America/Denver"))
        #expect(try item.customField("jsonfield") as JSON == ["fred": true])
        #expect(try item.customField("jsonfield") as [String: JSON] == ["fred": true])
        let media: Asset = try item.customField("mediafield")
        #expect(media.id == "CONT5EEF91164D224F8099CF567B9E2BAE37")
        #expect(media.name == "action.png")
        #expect(media.isDigitalAsset)
        #expect(media.fields == nil)
        #expect(try item.customField("referencefield") as Asset? == nil)
        #expect(try item.customField("mediafield", as: Asset?.self)?.id == media.id)
        #expect(try item.customField("referencefield") as JSON == .null)
    }

    @Test(
        "the action.png asset, with and without expand=all",
        arguments: [("DeliveryAssetIdResponseExpandAll.json", true), ("DeliveryAssetIdResponseExpandNone.json", false)])
    func actionAsset(file: String, expanded: Bool) throws {
        let asset = try Asset(json: try fixture(file))
        #expect(asset.id == "CONTB287460359D04B3BAAA898006978B29E")
        #expect(asset.name == "action.png")
        #expect(asset.type == "DigitalAsset")
        #expect(asset.kind == .digitalAsset)
        #expect(asset.taxonomies == (expanded ? [] : nil))
        #expect(asset.customFields.isEmpty)
        let digital = try #require(asset.digitalAsset)
        #expect(digital.width == 200)
        #expect(digital.height == 200)
        #expect(digital.size == 7853)
        #expect(digital.mimeType == "image/png")
        #expect(digital.version == "1")
        #expect(digital.fileType == "png")
        #expect(digital.advancedVideoInfo == nil)
        #expect(
            digital.nativeLinks.first?.href.contains("/assets/CONTB287460359D04B3BAAA898006978B29E/native/action.png")
                == true)
        #expect(digital.renditions.map(\.name) == ["Thumbnail", "Medium", "Large", "Small"])
        #expect(digital.renditions.allSatisfy { $0.type == "responsiveimage" && $0.formats.count == 2 })
        #expect(asset.thumbnailRendition?.format == "jpg")
        #expect(asset.thumbnailRendition?.size == 4927)
        #expect(asset.thumbnailRendition?.width == 150)
        #expect(digital.rendition(named: "Medium")?.format("webp")?.mimeType == "image/webp")
        #expect(throws: CustomFieldError.missingField(name: "size", id: asset.id, available: [])) {
            try asset.customField("size", as: Int.self)
        }
    }

    @Test("DeliveryDigitalAsset.json: a current-style image")
    func digitalAsset() throws {
        let asset = try Asset(json: try fixture("DeliveryDigitalAsset.json"))
        #expect(asset.id == "CONT056331360A754795A8E63DFCA682E6EF")
        #expect(asset.type == "Image")
        #expect(asset.typeCategory == "DigitalAssetType")
        #expect(asset.isDigitalAsset)
        #expect(asset.description == "This is a test description")
        #expect(asset.slug == "1481786088643-blog_6_header_1440x540px")
        #expect(asset.translatable == false)
        #expect(asset.language == nil)
        #expect(asset.fileGroup == "Images")
        #expect(asset.fileExtension == "jpg")
        #expect(asset.mimeType == "image/jpeg")
        #expect(asset.updatedDate?.date == Date(timeIntervalSince1970: 1_668_808_867.495))
        let digital = try #require(asset.digitalAsset)
        #expect(digital.width == 1440)
        #expect(digital.height == 540)
        #expect(digital.size == 528_070)
        #expect(digital.fileType == "jpeg")
        #expect(digital.version == nil)
        #expect(digital.renditions.map(\.name) == ["Thumbnail", "Medium", "Large", "Small"])
        #expect(asset.thumbnailRendition?.size == 5242)
        #expect(asset.link(rel: "describedby")?.mediaType == "application/json")
    }

    @Test("DeliveryTaxonomies_allFields.json: two taxonomies")
    func taxonomies() throws {
        let page = try DeliveryAPI.listTaxonomies().decode(try fixture("DeliveryTaxonomies_allFields.json"))
        #expect(page.count == 2)
        #expect(page.limit == 100)
        #expect(page.totalResults == 2)
        #expect(page.hasMore == false)
        #expect(page.items.map(\.name) == ["FABTax2", "FAB Taxonomy"])
        #expect(page.items[0].id == "CC84DFA2971342BFBB277B02AC139B3F")
        #expect(page.items[0].shortName == "FT2")
        #expect(page.items[0].customProperties == ["CustomProperty1": "CustomVal1", "CustomProperty2": "CustomVal2"])
        #expect(page.items[1].customProperties.isEmpty)
        #expect(page.items[1].description == nil)
        #expect(page.items[1].updatedDate?.value == "2020-05-07T14:49:37.980Z")
        #expect(page.links.map(\.rel) == ["self", "canonical", "describedby", "first", "last"])
    }

    @Test("DeliveryTaxonomyCategories_allFields.json: a taxonomy list despite its name")
    func categoriesFixture() throws {
        let json = try fixture("DeliveryTaxonomyCategories_allFields.json")
        let taxonomies = try DeliveryAPI.listTaxonomies().decode(json)
        #expect(taxonomies.limit == 50)
        #expect(taxonomies.count == 1)
        #expect(taxonomies.items.first?.name == "TestTaxonomy")
        #expect(taxonomies.items.first?.description == "Test taxonomy 1")
        #expect(taxonomies.links.map(\.rel) == ["self"])
        // As the SDK's categories test does, it also decodes as a category page (no apiName, position ...).
        let categories = try DeliveryAPI.listTaxonomyCategories(taxonomyId: "t").decode(json)
        #expect(categories.items.first?.id == "E77383D9EC9C4DB0941D42BA8A5BA85B")
        #expect(categories.items.first?.apiName == nil)
        #expect(categories.items.first?.position == nil)
    }

    @Test("DeliverySlugResponse.json: empty, so a client reports malformed JSON")
    func emptySlugResponse() async throws {
        let body = try fixtureBytes("DeliverySlugResponse.json")
        #expect(body.isEmpty)
        let client = try makeClient(StubTransport { _ in .response(status: 200, body: body) })
        await #expect(
            throws: DeliveryError.malformedJSON(
                url:
                    "http://localhost:2112/content/published/api/v1.1/items/.by.slug/s?channelToken=REDACTED&expand=all",
                JSONParseError(at: 0, "empty body"))
        ) {
            try await client.fetch(DeliveryAPI.readAsset(slug: "s"))
        }
    }

    @Test("a category read with every optional part")
    func category() throws {
        let json = try JSON.parse(
            #"""
            {"id": "B0A3", "name": "Cars", "description": "", "apiName": "regions-europe-cars", "position": 0,
             "parent": {"id": "C711", "name": "Europe", "apiName": "regions-europe"},
             "ancestors": [{"id": "C711", "name": "Europe", "apiName": "regions-europe"}],
             "children": {"hasMore": false, "offset": 0, "count": 1, "limit": 1,
                          "items": [{"id": "D1", "name": "Vans", "apiName": "vans", "position": 0, "links": []}], "links": []},
             "keywords": ["auto"], "synonyms": ["automobile"], "customProperties": {"k": "v"},
             "links": [{"href": "https://h/x", "rel": "self", "method": "GET", "mediaType": "application/json"}]}
            """#)
        let category = try DeliveryAPI.readTaxonomyCategory(taxonomyId: "t", categoryId: "c").decode(json)
        #expect(category.apiName == "regions-europe-cars")
        #expect(category.position == 0)
        #expect(category.parent?.name == "Europe")
        #expect(category.ancestors.map(\.id) == ["C711"])
        #expect(category.children?.items.map(\.name) == ["Vans"])
        #expect(category.keywords == ["auto"])
        #expect(category.synonyms == ["automobile"])
        #expect(category.customProperties == ["k": "v"])
    }

    @Test("variation sets")
    func variations() throws {
        let all = try DeliveryAPI.listVariations(id: "c").decode(
            try JSON.parse(
                #"{"data":[{"varType":"language","masterItem":"CORE1","items":[{"id":"CORE2","value":"fr"}]}],"links":[]}"#
            ))
        #expect(all.first?.varType == "language")
        #expect(all.first?.items.map(\.value) == ["fr"])
        let one = try DeliveryAPI.listVariations(id: "c", type: "language").decode(
            try JSON.parse(#"{"setId":"S","masterItem":"CORE1","items":[{"id":"CORE1","value":"en-US","links":[]}]}"#))
        #expect(one.setId == "S")
        #expect(one.items.first?.id == "CORE1")
    }

    @Test(
        "shapes that are not items are refused with a path",
        arguments: [
            (#"[1,2]"#, "expected an item object with a string \"id\", found array of 2"),
            (#"{"name":"x"}"#, "expected an object with a string \"id\", found no \"id\""),
            (#"{"id":7}"#, "expected an object with a string \"id\", found \"id\": number 7"),
        ])
    func notAnItem(text: String, message: String) throws {
        #expect(throws: ShapeError.self) { try Asset(json: try JSON.parse(text)) }
        do {
            _ = try Asset(json: try JSON.parse(text))
        } catch let error as ShapeError {
            #expect(error.description == message)
        }
    }

    @Test("list pages need an items array, and each item must be one")
    func badPages() throws {
        let request = DeliveryAPI.listAssets()
        #expect(throws: ShapeError(path: "items", expected: "an array of items", found: "nothing")) {
            try request.decode(try JSON.parse(#"{"hasMore":false}"#))
        }
        #expect(
            throws: ShapeError(path: "items[1]", expected: "an item object with a string \"id\"", found: "number 3")
        ) {
            try request.decode(try JSON.parse(#"{"items":[{"id":"a"},3]}"#))
        }
    }

    @Test("dates without milliseconds still decode; bad dates do not break the item")
    func lenientDates() throws {
        let item = try Asset(
            json: try JSON.parse(
                #"{"id":"a","createdDate":{"value":"2020-06-17T00:00:00Z","timezone":"UTC"},"updatedDate":{"value":"soon"}}"#
            ))
        #expect(item.createdDate?.date == Date(timeIntervalSince1970: 1_592_352_000))
        #expect(item.updatedDate?.value == "soon")
        #expect(item.updatedDate?.date == nil)
    }
}
