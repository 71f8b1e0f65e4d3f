// oceq's answers beside the bodies real OCM servers returned (../shared/fixtures/ocm-recorded,
// issue 16): for each kind of request in that folder's README index, the same request form is sent
// to `oceq serve` of the bundled sample channel, with an item of the sample of the same kind, and the
// SHAPE of the two answers is compared: which keys each object has (the envelope, a hit, an item,
// an asset's `fields`, a rendition, an error body), the kind of each value (string, number, bool,
// null, object, array), the order of `links` by rel, and the paths of link hrefs. Values that
// depend on content (ids, names, counts) are not compared. Every difference found is either fixed
// in the server or listed in `knownDifferences` with its reason (and in README.md's `oceq serve`
// section); each test expects exactly its listed differences, so a regression fails it and so does
// a fixed difference left in the table.

import ChannelServer
import Foundation
import OCEQCore
import Testing

/// Where the recordings of OCM's answers are.
enum OCMRecordings {
    /// `../shared/fixtures/ocm-recorded/responses` beside the repository, when it is there.
    static let folder: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures/ocm-recorded/responses")
            .path
        return FileManager.default.fileExists(atPath: folder) ? folder : nil
    }()
}

@Suite(
    "oceq serve answers in the shape of OCM's recorded answers", .serialized,
    .enabled(
        if: OCMRecordings.folder != nil,
        "../shared/fixtures/ocm-recorded/responses is not beside the repository: nothing to compare with"))
struct RecordedShapeTests {
    static let article = "CORE034E9E5F88CD31495EB4166E81ECB6AD"
    static let image = "CONT048FE3B8FBB416FBB0D2E2232FF7F1F9"
    static let articleType = "OCEGettingStartedArticle"

    /// The differences oceq keeps, by "kind: what", with the reason. Each test below expects exactly
    /// the entries of its kind.
    static let knownDifferences: [String: String] = [
        "envelope: key order":
            "JSONWriter prints object keys sorted (deterministic output, one dictionary type for JSON); OCM "
            + "writes hasMore, offset, count, limit first. JSON clients do not depend on key order.",
        "get-item: missing fileExtension":
            "2022 servers write fileExtension \"contentItem\" on content items; 2020 servers and oceq write it "
            + "only on assets.",
        "expand-all: missing fileExtension": "the same as get-item: missing fileExtension.",
        "asset-stub: missing fileExtension":
            "2022 servers name an asset's file extension in its reference stub; the 2021 real responses "
            + "(../shared/fixtures/ocm, pinned by ExportShapeTests) have stubs without it, and oceq follows them.",
        "asset: missing language":
            "oceq leaves language out on non-translatable assets (as the 2021 export fixtures of "
            + "../shared/fixtures/ocm show); the 2022 recording writes language with translatable false.",
        "expanded-asset: missing language": "the same as asset: missing language.",
        "search-all hit: extra fileGroup":
            "the recorded hits come from a 2020 server; oceq's hits are its full items, with the keys 2022 "
            + "servers write on single items (DeliveryKit's Asset decodes a top-level mimeType).",
        "search-all hit: extra mimeType": "the same as search-all hit: extra fileGroup.",
        "search-all hit: extra translatable": "the same as search-all hit: extra fileGroup.",
        "type-list hit: extra fileGroup": "the same as search-all hit: extra fileGroup.",
        "type-list hit: extra mimeType": "the same as search-all hit: extra mimeType.",
        "type-list hit: extra translatable": "the same as search-all hit: extra translatable.",
        "links-none: extra fileGroup": "the recording is from a 2020 server, which wrote neither key.",
        "links-none: extra mimeType": "the same as links-none: extra fileGroup.",
        "variations: missing describedby link":
            "oceq serves no metadata-catalog entry for variation sets, so it links none.",
        "error-404: extra o:errorCode":
            "oceq names every error with o:errorCode; the recordings went through the SDK's ContentError, "
            + "which keeps only detail, title, status and type.",
        "error-404: type URL":
            "oceq's type is the RFC 9110 section of the status; OCM's is an RFC 2616 anchor (#sec10.5.1, the "
            + "500 section) for both 404 and 400.",
        "error-bad-expand: type URL": "the same as error-404: type URL.",
        "error-invalid-query: type URL": "the same as error-404: type URL.",
        "error-invalid-query: extra o:errorCode": "the same as error-404: extra o:errorCode.",
        "error-bad-expand: extra o:errorCode": "the same as error-404: extra o:errorCode.",
        "error-unknown-type: type URL": "the same as error-404: type URL.",
        "error-unknown-type: extra o:errorCode": "the same as error-404: extra o:errorCode.",
    ]

    let channel: TestChannel

    init() throws {
        channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
    }

    // MARK: - Shape comparison

    /// A value's kind as the comparison sees it.
    static func kind(_ value: JSON) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The raw text and value of one recording.
    static func recording(_ name: String) throws -> (text: String, value: JSON) {
        let folder = try #require(OCMRecordings.folder)
        let data = try #require(FileManager.default.contents(atPath: folder + "/" + name), "no recording \(name)")
        return (String(decoding: data, as: UTF8.self), try JSON.parse([UInt8](data)))
    }

    /// The differences between two objects, named "kind: missing K", "kind: extra K" or
    /// "kind: K is A, not B" for a key both have with values of different kinds.
    static func keyDifferences(_ kind: String, recorded: JSON?, served: JSON?) -> Set<String> {
        guard let recorded = recorded?.objectValue, let served = served?.objectValue else {
            return ["\(kind): not an object on both sides"]
        }
        var differences: Set<String> = []
        for key in Set(recorded.keys).subtracting(served.keys) { differences.insert("\(kind): missing \(key)") }
        for key in Set(served.keys).subtracting(recorded.keys) { differences.insert("\(kind): extra \(key)") }
        for key in Set(recorded.keys).intersection(served.keys) {
            let (a, b) = (Self.kind(recorded[key]!), Self.kind(served[key]!))
            if a != b { differences.insert("\(kind): \(key) is \(b), not \(a)") }
        }
        return differences
    }

    /// The rels of a `links` array, in order.
    static func rels(_ value: JSON?) -> [String] {
        (value?["links"]?.arrayValue ?? []).compactMap { $0["rel"]?.stringValue }
    }

    /// The path of every link href after `/api/v1.1` (query dropped), in order, with ids and file
    /// names replaced by placeholders so hrefs of different items compare.
    static func hrefForms(_ value: JSON?, ids: [String: String]) -> [String] {
        (value?["links"]?.arrayValue ?? []).compactMap { link -> String? in
            guard let href = link["href"]?.stringValue, let range = href.range(of: "/api/v1.1") else { return nil }
            var path = String(href[range.upperBound...].prefix { $0 != "?" })
            for (id, placeholder) in ids { path = path.replacingOccurrences(of: id, with: placeholder) }
            return path
        }
    }

    /// The envelope keys (hasMore, offset, count, limit, totalResults) in the order they are written.
    static func envelopeKeyOrder(_ text: String) -> [String] {
        ["hasMore", "offset", "count", "limit", "totalResults"].compactMap { key in
            text.range(of: "\"\(key)\":").map { (key, $0.lowerBound) }
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// The known differences of `kind`.
    static func known(_ kind: String) -> Set<String> {
        Set(knownDifferences.keys.filter { $0.hasPrefix(kind + ":") })
    }

    /// GET `path` from the sample channel: status, text and value.
    func serve(_ path: String) async throws -> (status: Int, text: String, value: JSON) {
        let response = try await channel.get(path)
        return (response.status, response.text, try JSON.parse(response.body))
    }

    // MARK: - Single items

    @Test("one item: the same keys, value kinds, user-field kinds and links as OCM's")
    func oneItem() async throws {
        let recorded = try Self.recording("GetContentItemFieldTypeTests.getContentItem.json").value
        let served = try await serve("/items/\(Self.article)")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("get-item", recorded: recorded, served: served.value) == Self.known("get-item"))
        #expect(Self.rels(served.value) == Self.rels(recorded))
        #expect(Self.rels(served.value) == ["self", "canonical", "describedby"])
        let recordedForms = Self.hrefForms(recorded, ids: ["CORE426E5263CCD24D7AA11E00DDBE0516A1": "{id}"])
        #expect(Self.hrefForms(served.value, ids: [Self.article: "{id}"]) == recordedForms)
        #expect(served.value["typeCategory"] == recorded["typeCategory"])

        // User fields: a reference is a stub of the same keys; a datetime is {value, timezone}.
        let recordedStub = recorded["fields"]!["sdk-test-menuitem-ref"]
        let servedStub = served.value["fields"]!["author"]
        #expect(Self.keyDifferences("stub", recorded: recordedStub, served: servedStub) == [])
        #expect(Self.rels(servedStub) == ["self"])
        let recordedAssetStub = recorded["fields"]!["sdk-test-asset-ref"]
        let servedAssetStub = served.value["fields"]!["image"]
        #expect(
            Self.keyDifferences("asset-stub", recorded: recordedAssetStub, served: servedAssetStub)
                == Self.known("asset-stub"))
        let recordedDate = recorded["fields"]!["sdk-test-datetime"]
        #expect(
            Self.keyDifferences("datetime", recorded: recordedDate, served: served.value["fields"]!["published_date"])
                == [])
        for key in ["createdDate", "updatedDate"] {
            #expect(Self.keyDifferences(key, recorded: recorded[key], served: served.value[key]) == [])
        }
    }

    @Test("expand=all and expand=fields.X: references become full items of OCM's keys, one level deep")
    func expanded() async throws {
        let recorded = try Self.recording("GetContentItemFieldTypeTests.getContentItem_all.json").value
        let served = try await serve("/items/\(Self.article)?expand=all")
        #expect(served.status == 200)
        #expect(
            Self.keyDifferences("expand-all", recorded: recorded, served: served.value) == Self.known("expand-all"))
        #expect(Self.rels(served.value) == Self.rels(recorded))
        #expect(Self.kind(served.value["taxonomies"]!) == "object")

        // One field named: that field is expanded (an asset, as in the recording), the others stay stubs.
        let one = try Self.recording("GetContentItemFieldTypeTests.getContentItem_fields.sdk-test-asset-ref.json").value
        let servedOne = try await serve("/items/\(Self.article)?expand=fields.image")
        #expect(servedOne.status == 200)
        let expandedAsset = servedOne.value["fields"]!["image"]
        let recordedAsset = one["fields"]!["sdk-test-asset-ref"]
        #expect(
            Self.keyDifferences("expanded-asset", recorded: recordedAsset, served: expandedAsset)
                == Self.known("expanded-asset"))
        #expect(expandedAsset?["fields"]?["renditions"] != nil)
        let stubKeys = Set(one["fields"]!["sdk-test-menuitem-ref"]!.objectValue!.keys)
        #expect(Set(servedOne.value["fields"]!["author"]!.objectValue!.keys) == stubKeys)
    }

    @Test("a digital asset with expand=all: its fields, renditions and formats have OCM's keys and kinds")
    func asset() async throws {
        let recorded = try Self.recording("DigitalAssetRenditionTests.getDigitalAsset.json").value
        let served = try await serve("/items/\(Self.image)?expand=all")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("asset", recorded: recorded, served: served.value) == Self.known("asset"))
        let (recordedFields, servedFields) = (recorded["fields"], served.value["fields"])
        #expect(Self.keyDifferences("asset-fields", recorded: recordedFields, served: servedFields) == [])
        #expect(
            Self.keyDifferences(
                "metadata", recorded: recordedFields?["metadata"], served: servedFields?["metadata"]
            ) == [])
        let recordedRendition = recordedFields?["renditions"]?[0]
        let servedRendition = servedFields?["renditions"]?[0]
        #expect(Self.keyDifferences("rendition", recorded: recordedRendition, served: servedRendition) == [])
        #expect(
            Self.keyDifferences(
                "format", recorded: recordedRendition?["formats"]?[0], served: servedRendition?["formats"]?[0]
            ) == [])
        let recordedNames = recordedFields!["renditions"]!.arrayValue!.compactMap { $0["name"]?.stringValue }
        let servedNames = servedFields!["renditions"]!.arrayValue!.compactMap { $0["name"]?.stringValue }
        #expect(Set(servedNames).isSuperset(of: recordedNames))
        let native = Self.hrefForms(
            servedFields?["native"], ids: [Self.image: "{id}", "ridge-evening-wide-30.jpg": "{file}"])
        let recordedNative = Self.hrefForms(
            recordedFields?["native"], ids: ["CONT7F22C715BF33415995D59FE0A5712439": "{id}", "sorbet.jpg": "{file}"])
        #expect(native == recordedNative)
        let format = Self.hrefForms(
            servedRendition?["formats"]?[0], ids: [Self.image: "{id}", "ridge-evening-wide-30.jpg": "{file}"])
        let recordedFormat = Self.hrefForms(
            recordedRendition?["formats"]?[0],
            ids: ["CONT7F22C715BF33415995D59FE0A5712439": "{id}", "sorbet.jpg": "{file}"])
        #expect(format == recordedFormat)
    }

    // MARK: - Searches

    @Test("a search with fields=all: the envelope, its links and a full hit as OCM's")
    func searchAll() async throws {
        let recording = try Self.recording("SearchContentItemsMenuTests.testFieldsAll.json")
        let served = try await serve("/items?q=type%20eq%20%22\(Self.articleType)%22&fields=all&orderBy=name")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("envelope", recorded: recording.value, served: served.value) == [])
        #expect(Self.rels(served.value) == Self.rels(recording.value))
        #expect(
            Self.hrefForms(served.value, ids: [:]) == [
                "/items", "/items", "/metadata-catalog/items", "/items", "/items",
            ])
        #expect(Self.hrefForms(recording.value, ids: [:]) == Self.hrefForms(served.value, ids: [:]))
        let (hit, recordedHit) = (served.value["items"]?[0], recording.value["items"]?[0])
        #expect(
            Self.keyDifferences("search-all hit", recorded: recordedHit, served: hit) == Self.known("search-all hit"))
        #expect(Self.rels(hit) == ["self"])

        // Known difference "envelope: key order": OCM's order, oceq's sorted keys.
        #expect(Self.envelopeKeyOrder(recording.text) == ["hasMore", "offset", "count", "limit"])
        #expect(Self.envelopeKeyOrder(served.text) == ["count", "hasMore", "limit", "offset"])
        #expect(Self.knownDifferences["envelope: key order"] != nil)
    }

    @Test("a search without fields: summary hits of exactly OCM's keys")
    func searchSummary() async throws {
        let recorded = try Self.recording("AsyncRequestTestsLive.testAsynchCall.json").value
        let served = try await serve("/items?q=type%20eq%20%22\(Self.articleType)%22")
        #expect(Self.keyDifferences("envelope", recorded: recorded, served: served.value) == [])
        #expect(Self.keyDifferences("hit", recorded: recorded["items"]?[0], served: served.value["items"]?[0]) == [])
        #expect(Self.rels(served.value) == Self.rels(recorded))
    }

    @Test("paging: prev and next come before first and last, totalResults only when asked, as OCM orders them")
    func paging() async throws {
        let middle = try Self.recording("SearchContentItemsMenuTests.testPaginationMiddle.json").value
        let servedMiddle = try await serve(
            "/items?q=type%20eq%20%22\(Self.articleType)%22&fields=all&limit=5&offset=5&orderBy=name")
        #expect(Self.rels(servedMiddle.value) == Self.rels(middle))
        #expect(Self.rels(middle) == ["self", "canonical", "describedby", "prev", "next", "first", "last"])
        #expect(Self.keyDifferences("envelope", recorded: middle, served: servedMiddle.value) == [])

        let beginning = try Self.recording("SearchContentItemsMenuTests.testPaginationBeginning.json").value
        let servedBeginning = try await serve(
            "/items?q=type%20eq%20%22\(Self.articleType)%22&fields=all&limit=5&orderBy=name&totalResults=true")
        #expect(Self.rels(servedBeginning.value) == Self.rels(beginning))
        #expect(Self.keyDifferences("envelope", recorded: beginning, served: servedBeginning.value) == [])

        let end = try Self.recording("SearchContentItemsMenuTests.testPaginationEnd.json").value
        let total = servedBeginning.value["totalResults"]!.intValue!
        let servedEnd = try await serve(
            "/items?q=type%20eq%20%22\(Self.articleType)%22&fields=all&limit=5&offset=\(total - 5)&orderBy=name")
        #expect(Self.rels(servedEnd.value) == Self.rels(end))
        #expect(servedEnd.value["hasMore"] == false)
    }

    @Test("a fields list projects hits to id, type, links and the named properties, user fields under fields")
    func projection() async throws {
        let recorded = try Self.recording("GetContentItemFieldTypeTests.testSearchItemSpecificFields.json").value
        let served = try await serve(
            "/items?q=type%20eq%20%22\(Self.articleType)%22&fields=name,fields.image_caption&links=none")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("envelope", recorded: recorded, served: served.value) == [])
        let hit = served.value["items"]?[0]
        #expect(Self.keyDifferences("projected hit", recorded: recorded["items"]?[0], served: hit) == [])
        #expect(hit?["fields"]?.objectValue.map { Array($0.keys) } == ["image_caption"])
        #expect(served.value["links"] == .array([]))

        let second = try Self.recording("SearchContentItemsMenuTests.testFieldsSpecific2.json").value
        let servedSecond = try await serve(
            "/items?q=type%20eq%20%22\(Self.articleType)%22&fields=fields.image_caption,name,description&orderBy=name")
        let secondHit = servedSecond.value["items"]?[0]
        #expect(Self.keyDifferences("projected hit", recorded: second["items"]?[0], served: secondHit) == [])
        #expect(Self.rels(secondHit) == ["self"])

        let first = try Self.recording("SearchContentItemsMenuTests.testFieldsSpecific.json").value
        let servedFirst = try await serve("/items?q=type%20eq%20%22\(Self.articleType)%22&fields=fields.image_caption")
        #expect(
            Self.keyDifferences("projected hit", recorded: first["items"]?[0], served: servedFirst.value["items"]?[0])
                == [])
    }

    @Test("a q that pins no single type: hits as OCM's apart from the listed differences")
    func typeList() async throws {
        let recorded = try Self.recording("SearchContentItemsMenuTests.testSearchTypeList.json").value
        let served = try await serve(
            "/items?q=(type%20eq%20%22\(Self.articleType)%22%20OR%20type%20eq%20%22OCEGettingStartedTopic%22)"
                + "&fields=all&orderBy=name")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("envelope", recorded: recorded, served: served.value) == [])
        #expect(
            Self.keyDifferences("type-list hit", recorded: recorded["items"]?[0], served: served.value["items"]?[0])
                == Self.known("type-list hit"))
        // No hit of a q pinning no one type carries fields (an OR of types, a taxonomy search), as OCM's;
        // a q pinning one type, alone or ANDed or in every branch of an OR, and no q, keep them.
        let taxonomy = try await serve(
            "/items?q=(taxonomies.categories.nodes.id%20eq%20%22444E4DE4EBE9796474AB3AC678DD2C35%22)&fields=all")
        for answer in [served, taxonomy] {
            let hits = answer.value["items"]?.arrayValue ?? []
            #expect(!hits.isEmpty && hits.allSatisfy { $0["fields"] == nil && $0["taxonomies"] != nil })
        }
        for path in [
            "/items?q=(type%20eq%20%22\(Self.articleType)%22%20AND%20name%20sw%20%22A%22)&fields=all",
            "/items?q=(type%20eq%20%22\(Self.articleType)%22%20OR%20type%20eq%20%22\(Self.articleType)%22)&fields=all",
            "/items?fields=all&limit=20",
        ] {
            let hits = try await serve(path).value["items"]?.arrayValue ?? []
            #expect(!hits.isEmpty && hits.allSatisfy { $0["fields"] != nil }, "\(path)")
        }
    }

    @Test("links=none empties every links array, of the envelope, hits, items and references")
    func linksNone() async throws {
        let search = try Self.recording("AdvancedVideoTests.aSearchForAdvancedVideos.json").value
        let servedSearch = try await serve("/items?q=type%20eq%20%22Image%22&fields=all&links=none&limit=1")
        #expect(search["links"] == .array([]))
        #expect(servedSearch.value["links"] == .array([]))
        #expect(ClientFormsTests.linkArrays(servedSearch.value).allSatisfy { $0.isEmpty })
        #expect(ClientFormsTests.linkArrays(search).allSatisfy { $0.isEmpty })

        let item = try Self.recording("GetContentItemParameterTests.testGetItemNoLinks.json").value
        let servedItem = try await serve("/items/\(Self.article)?links=none")
        #expect(Self.keyDifferences("links-none", recorded: item, served: servedItem.value) == Self.known("links-none"))
        #expect(ClientFormsTests.linkArrays(servedItem.value).allSatisfy { $0.isEmpty })
        #expect(servedItem.value["fields"]?["author"]?["links"] == .array([]))

        let single = try Self.recording("GetContentItemParameterTests.testGetItemLinksSingle.json").value
        let servedSingle = try await serve("/items/\(Self.article)?links=self")
        #expect(Self.rels(servedSingle.value) == Self.rels(single))
        #expect(
            Self.rels(servedSingle.value["fields"]?["author"]) == Self.rels(single["fields"]?["sdk-test-menuitem-ref"]))
    }

    // MARK: - Variations, API info, taxonomies

    @Test("language variations: {setId, masterItem, items, links} with items of {id, value, links}")
    func variations() async throws {
        let recorded = try Self.recording("GetItemLanguageVariationsTests.getItemLanguageVariations.json").value
        let served = try await serve("/items/\(Self.article)/variations/language")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("variations", recorded: recorded, served: served.value) == [])
        #expect(
            Self.keyDifferences("variation", recorded: recorded["items"]?[0], served: served.value["items"]?[0]) == [])
        var differences: Set<String> = []
        let (recordedRels, servedRels) = (Self.rels(recorded), Self.rels(served.value))
        for rel in recordedRels where !servedRels.contains(rel) {
            differences.insert("variations: missing \(rel) link")
        }
        #expect(differences == Self.known("variations"))
        #expect(servedRels == recordedRels.filter { servedRels.contains($0) })
        let forms = Self.hrefForms(served.value, ids: [Self.article: "{id}"])
        #expect(forms == ["/items/{id}/variations/language", "/items/{id}/variations/language"])
    }

    @Test("the API info at the base URL: OCM's keys, catalog link and links")
    func apiInfo() async throws {
        let recorded = try Self.recording("MiscTests.testGetApiInfo.json").value
        let served = try await serve("")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("api", recorded: recorded, served: served.value) == [])
        #expect(Self.rels(served.value) == Self.rels(recorded))
        #expect(Self.rels(served.value["catalog"]) == Self.rels(recorded["catalog"]))
        #expect(Self.hrefForms(served.value, ids: [:]) == Self.hrefForms(recorded, ids: [:]))
        for key in ["version", "lifecycle", "isLatest"] { #expect(served.value[key] == recorded[key]) }
    }

    @Test("taxonomies: the list envelope, a taxonomy's keys and links as OCM's")
    func taxonomies() async throws {
        let recorded = try Self.recording("TaxonomyModelTests.cTestGetTaxonomies.json").value
        let served = try await serve("/taxonomies")
        #expect(served.status == 200)
        #expect(Self.keyDifferences("taxonomies", recorded: recorded, served: served.value) == [])
        #expect(Self.rels(served.value) == Self.rels(recorded))
        #expect(Self.hrefForms(served.value, ids: [:]) == Self.hrefForms(recorded, ids: [:]))
        let (hit, recordedHit) = (served.value["items"]?[0], recorded["items"]?[0])
        #expect(Self.keyDifferences("taxonomy", recorded: recordedHit, served: hit) == [])
        #expect(Self.rels(hit) == ["self"])

        // An item's taxonomies block: {items: [{id, name, shortName, categories: {items}, links}]}.
        let item = try Self.recording("TaxonomyModelTests.getContentItem_all.json").value
        let recordedBlock = item["taxonomies"]?["items"]?[0]
        let search = try await serve("/items?fields=all&limit=500")
        let tagged = search.value["items"]?.arrayValue?.compactMap { $0["taxonomies"]?["items"]?[0] }.first
        #expect(Self.keyDifferences("item-taxonomy", recorded: recordedBlock, served: tagged) == [])
        let recordedCategory = recordedBlock?["categories"]?["items"]?[0]
        let category = tagged?["categories"]?["items"]?[0]
        #expect(Self.keyDifferences("item-category", recorded: recordedCategory, served: category) == [])
        #expect(
            Self.keyDifferences("node", recorded: recordedCategory?["nodes"]?[0], served: category?["nodes"]?[0]) == [])
    }

    // MARK: - Errors

    @Test("error bodies: the keys, status and titles OCM's carry, apart from the listed differences")
    func errors() async throws {
        /// Key differences, plus the title and the `type` URL when they differ.
        func differences(_ kind: String, _ recorded: JSON, _ served: JSON) -> Set<String> {
            var found = Self.keyDifferences(kind, recorded: recorded, served: served)
            if served["title"] != recorded["title"] { found.insert("\(kind): title") }
            if served["type"] != recorded["type"] { found.insert("\(kind): type URL") }
            return found
        }
        let notFound = try Self.recording("ErrorTests.testItemNotFound.json").value
        let served404 = try await serve("/items/\(Self.article)X")
        #expect(served404.status == 404)
        #expect(differences("error-404", notFound, served404.value) == Self.known("error-404"))
        #expect(served404.value["title"] == "Item Not Found")
        #expect(served404.value["detail"] == .string("Item not found: \(Self.article)X"))
        #expect(notFound["detail"]?.stringValue?.hasPrefix("Item not found: ") == true)
        #expect(served404.value["status"] == notFound["status"])

        let badExpand = try Self.recording("ErrorTests.testGetItemInvalidParam.json").value
        let served400 = try await serve("/items/\(Self.article)?expand=fields.BAD!!!")
        #expect(served400.status == 400)
        // The recorded title names the recorded item: the served one must name the served item the same way.
        var served400Value = served400.value
        served400Value["title"] = served400.value["title"]?.stringValue.map {
            .string($0.replacingOccurrences(of: Self.article, with: "COREE6AC1B9069114B60946A541326EDF5DA"))
        }
        #expect(differences("error-bad-expand", badExpand, served400Value) == Self.known("error-bad-expand"))
        #expect(served400.value["title"] == served400.value["detail"])
        #expect(served400.value["status"] == badExpand["status"])

        let invalidQuery = try Self.recording("ErrorTests.testSearchNotFound.json").value
        // OCM's own words for a type the channel does not have, in q or in the JS SDK's field:type:equals.
        let unknownType = try await serve("/items?q=type%20eq%20%22unknown%22&fields=all")
        #expect(unknownType.status == 400)
        #expect(differences("error-unknown-type", invalidQuery, unknownType.value) == Self.known("error-unknown-type"))
        #expect(unknownType.value["detail"] == invalidQuery["detail"])
        let unknownInList = try await serve("/items?field:type:equals=OCEGettingStartedTopic,Nope")
        #expect(unknownInList.status == 400)
        #expect(unknownInList.value["detail"] == "Type with name Nope is not found")
        #expect(try await serve("/items?q=type%20eq%20%22OCEGettingStartedTopic%22").status == 200)
        // A q oceq cannot read is OCM's "Invalid Query" body.
        let malformed = try await serve("/items?q=type%20eq%20%22x%22%20AND")
        #expect(malformed.status == 400)
        #expect(malformed.value["title"] == "Invalid Query")
        #expect(differences("error-invalid-query", invalidQuery, malformed.value) == Self.known("error-invalid-query"))
    }

    @Test("every known difference names a compared kind and gives a reason")
    func knownDifferencesAreExplained() {
        let kinds = [
            "envelope", "get-item", "asset-stub", "expand-all", "asset", "expanded-asset", "search-all hit",
            "type-list hit",
            "links-none",
            "variations",
            "error-404", "error-bad-expand", "error-invalid-query", "error-unknown-type",
        ]
        for (difference, reason) in Self.knownDifferences {
            #expect(kinds.contains { difference.hasPrefix($0 + ":") }, "\(difference)")
            #expect(reason.count > 10)
        }
    }
}
