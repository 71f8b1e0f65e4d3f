import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

@Suite("Delivery shape of export items")
struct ExportShapeTests {
    static let imageId = "CONT1B5A45885C7F40B39E78E2E3182CF950"
    static let postId = "CORE0676665F53764E3D9C2103E2FD42DF6F"
    static let authorId = "CORECE3370197DB34D77A2D5D4DC0118B9C8"

    private func blog() throws -> (DeliveryShaper, TemporaryFolder) {
        let cache = try TemporaryFolder()
        do {
            return (DeliveryShaper(content: try loadExport([ExportFixtures.blog2021Zip], cache: cache)), cache)
        } catch {
            cache.remove()
            throw error
        }
    }

    @Test("links=none: shaping without links writes the same bytes as shaping with them and emptying them")
    func omittedLinks() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let shaper = DeliveryShaper(content: content)
        var omitting = ExportFixtures.context
        omitting.omitsLinks = true
        let emptying = JSONWriter(emptying: "links")
        #expect(content.items.count > 10)
        for position in 0..<content.items.count {
            let item = try content.items.item(at: position)
            for expand in [ExpandSpec.none, .all] {
                let full = try shaper.full(item, context: ExportFixtures.context, expand: expand)
                let lean = try shaper.full(item, context: omitting, expand: expand)
                #expect(emptying.bytes(lean) == emptying.bytes(full), "\(item.id)")
                // The shaper itself left no link to drop, and without `links=none` it makes them.
                #expect(JSONWriter().bytes(lean) == emptying.bytes(lean), "\(item.id)")
                #expect(JSONWriter().bytes(full) != emptying.bytes(full), "\(item.id)")
                let entry = try shaper.listEntry(item, context: omitting, expand: expand)
                let linked = try shaper.listEntry(item, context: ExportFixtures.context, expand: expand)
                #expect(emptying.bytes(entry) == emptying.bytes(linked), "\(item.id)")
            }
        }
    }

    // MARK: - Key sets against real Delivery responses

    @Test("an image's keys equal those of the real current-style Delivery response")
    func imageKeys() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let real = try ExportFixtures.ocm("DeliveryDigitalAsset.json")
        let image = try #require(try shaper.item(id: Self.imageId))
        let ours = try shaper.full(image, context: ExportFixtures.context, expand: .none)

        // Top level: identical to DeliveryDigitalAsset.json. `language` is absent on both because
        // the asset is not translatable.
        let topLevel: Set<String> = [
            "id", "type", "typeCategory", "name", "description", "slug", "translatable", "createdDate", "updatedDate",
            "fileExtension", "mimeType", "fileGroup", "fields", "links",
        ]
        #expect(real.keySet == topLevel)
        #expect(ours.keySet == topLevel)

        // `fields` of an asset: identical. The export also has `fields.fileGroup`; Delivery has it
        // at the top level only, so the shaper moves it.
        let assetFields: Set<String> = ["metadata", "size", "native", "renditions", "mimeType", "fileType"]
        #expect(real.at("fields")?.keySet == assetFields)
        #expect(ours.at("fields")?.keySet == assetFields)

        // A link object, a rendition, a rendition format, metadata: identical.
        let link: Set<String> = ["href", "rel", "method", "mediaType"]
        for path in ["links.0", "links.2", "fields.native.links.0", "fields.renditions.0.formats.0.links.0"] {
            #expect(real.at(path)?.keySet == link, "real \(path)")
            #expect(ours.at(path)?.keySet == link, "ours \(path)")
        }
        let rendition: Set<String> = ["name", "formats", "type"]
        let format: Set<String> = ["format", "size", "mimeType", "metadata", "links"]
        #expect(real.at("fields.renditions.0")?.keySet == rendition)
        #expect(ours.at("fields.renditions.0")?.keySet == rendition)
        #expect(real.at("fields.renditions.0.formats.0")?.keySet == format)
        #expect(ours.at("fields.renditions.0.formats.0")?.keySet == format)
        #expect(real.at("fields.metadata")?.keySet == ["width", "height"])
        #expect(ours.at("fields.metadata")?.keySet == ["width", "height"])

        // Rendition names and order are the real ones. Formats: the real response offers jpg and
        // webp; oceq serve also offers png (documented difference, the server can produce it).
        let names = { (json: JSON) in
            (json.at("fields.renditions")?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        }
        #expect(names(ours) == names(real))
        let realFormats = Set(
            (real.at("fields.renditions.0.formats")?.arrayValue ?? []).compactMap(\.["format"]?.stringValue))
        let ourFormats = Set(
            (ours.at("fields.renditions.0.formats")?.arrayValue ?? []).compactMap(\.["format"]?.stringValue))
        #expect(realFormats == ["jpg", "webp"])
        #expect(ourFormats == realFormats.union(["png"]))

        // The same rels on the item.
        let rels = { (json: JSON) in (json.at("links")?.arrayValue ?? []).compactMap { $0["rel"]?.stringValue } }
        #expect(rels(ours) == rels(real))
    }

    @Test("a content item's keys equal those of the real response, plus the fields newer servers add")
    func contentItemKeys() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let real = try ExportFixtures.ocm("singleContentItem.json")
        let post = try #require(try shaper.item(id: Self.postId))
        let ours = try shaper.full(post, context: ExportFixtures.context, expand: .none)

        // singleContentItem.json comes from an older server: it lacks `typeCategory`, `mimeType`
        // and `fileGroup`, which current servers send (delivery-api.md §7.1) and Oracle's Swift SDK
        // needs (`typeCategory`), so they are the only additions.
        let realTop: Set<String> = [
            "id", "type", "name", "description", "slug", "language", "translatable", "createdDate", "updatedDate",
            "fields", "links",
        ]
        let newer: Set<String> = ["typeCategory", "mimeType", "fileGroup"]
        #expect(real.keySet == realTop)
        #expect(ours.keySet == realTop.union(newer))

        // A reference stub: the real one is {id, type, name, links}; ours adds `typeCategory`
        // (present on stubs from current servers, delivery-api.md §7.2, and in the export itself).
        let realStub: Set<String> = ["id", "type", "name", "links"]
        #expect(real.at("fields.mediafield")?.keySet == realStub)
        #expect(ours.at("fields.starter-blog-post_header_image")?.keySet == realStub.union(["typeCategory"]))
        #expect(ours.at("fields.starter-blog-post_download_media.0")?.keySet == realStub.union(["typeCategory"]))

        // Links: identical keys and rels, including the stub's self link.
        let link: Set<String> = ["href", "rel", "method", "mediaType"]
        #expect(real.at("fields.mediafield.links.0")?.keySet == link)
        #expect(ours.at("fields.starter-blog-post_author.links.0")?.keySet == link)
        let rels = { (json: JSON) in (json.at("links")?.arrayValue ?? []).compactMap { $0["rel"]?.stringValue } }
        #expect(rels(ours) == rels(real))
        let mediaTypes = { (json: JSON) in
            (json.at("links")?.arrayValue ?? []).compactMap { $0["mediaType"]?.stringValue }
        }
        #expect(mediaTypes(ours) == mediaTypes(real))

        // Dates have the same shape.
        #expect(ours.at("createdDate")?.keySet == real.at("createdDate")?.keySet)
    }

    // MARK: - Values

    @Test("links carry the base URL and the percent-encoded channel token")
    func links() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let image = try #require(try shaper.item(id: Self.imageId))
        let json = try shaper.full(image, context: ExportFixtures.context, expand: .none)
        let api = "http://127.0.0.1:8411/content/published/api/v1.1"
        let token = "channelToken=" + ExportFixtures.encodedToken
        #expect(json.at("links.0.href") == .string("\(api)/items/\(Self.imageId)?\(token)"))
        #expect(json.at("links.1.href") == .string("\(api)/items/\(Self.imageId)?\(token)"))
        #expect(json.at("links.1.rel") == "canonical")
        #expect(json.at("links.2.href") == .string("\(api)/metadata-catalog/items/\(Self.imageId)?\(token)"))
        #expect(json.at("links.2.mediaType") == "application/schema+json")
        #expect(
            json.at("fields.native.links.0.href")
                == .string("\(api)/assets/\(Self.imageId)/native/Author%204%28427755%29.jpg?\(token)"))
        #expect(json.at("fields.native.links.0.mediaType") == "image/jpeg")
        #expect(
            json.at("fields.renditions.1.formats.0.links.0.href")
                == .string(
                    "\(api)/assets/\(Self.imageId)/Medium/Author%204%28427755%29.jpg?format=jpg&type=responsiveimage&\(token)"
                ))

        let expanded = try shaper.full(image, context: ExportFixtures.context, expand: .all)
        #expect(expanded.at("links.0.href") == .string("\(api)/items/\(Self.imageId)?\(token)&expand=all"))
        #expect(expanded.at("links.2.href") == .string("\(api)/metadata-catalog/items/\(Self.imageId)?\(token)"))
    }

    @Test("an image's shape: standard fields, renditions never upscaled, sizes from the file")
    func imageValues() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let image = try #require(try shaper.item(id: Self.imageId))
        let json = try shaper.full(image, context: ExportFixtures.context, expand: .none)
        #expect(json["typeCategory"] == "DigitalAssetType")
        #expect(json["mimeType"] == "image/jpeg")
        #expect(json["fileGroup"] == "Images")
        #expect(json["fileExtension"] == "jpg")
        #expect(json["translatable"] == false)
        #expect(json["language"] == nil)
        #expect(json["slug"] == "blogsite-blogsite-image-1481786051457-author-4(427755)")
        #expect(json["createdDate"] == ["value": "2021-04-15T18:20:49.346Z", "timezone": "UTC"])
        #expect(json.at("fields.metadata") == ["width": "256", "height": "256"])
        #expect(json.at("fields.size") == 10761)
        #expect(json.at("fields.fileType") == "jpeg")
        for key in ["repositoryId", "status", "channels", "createdBy", "version", "taxonomies"] {
            #expect(json[key] == nil, "\(key)")
        }
        // 256×256: Thumbnail 150, everything else the native size (no upscaling); the jpg format of a
        // rendition that is the native file reports the native size, others 0.
        let renditions = try #require(json.at("fields.renditions")?.arrayValue)
        let table = renditions.map { rendition -> String in
            let jpg = rendition["formats"]?.arrayValue?.first { $0["format"] == "jpg" }
            return "\(rendition["name"]?.stringValue ?? "?") \(jpg?.at("metadata.width")?.stringValue ?? "?")x"
                + "\(jpg?.at("metadata.height")?.stringValue ?? "?") \(jpg?["size"]?.intValue ?? -1)"
        }
        #expect(table == ["Thumbnail 150x150 0", "Medium 256x256 10761", "Large 256x256 10761", "Small 256x256 10761"])
        #expect(renditions.allSatisfy { $0["type"] == "responsiveimage" })
    }

    @Test(
        "rendition sizes scale the height down and never upscale",
        arguments: [
            (1900, 1200, ["Thumbnail 150x94", "Medium 1024x646", "Large 1900x1200", "Small 300x189"]),
            (1440, 540, ["Thumbnail 150x56", "Medium 1024x384", "Large 1440x540", "Small 300x112"]),
            (200, 200, ["Thumbnail 150x150", "Medium 200x200", "Large 200x200", "Small 200x200"]),
            (100, 3000, ["Thumbnail 100x3000", "Medium 100x3000", "Large 100x3000", "Small 100x3000"]),
        ])
    func renditionSizes(width: Int, height: Int, expected: [String]) {
        let native = ImageSize(width: width, height: height)
        let sizes = SystemRendition.all.map { rendition -> String in
            let size = rendition.size(forNative: native)
            return "\(rendition.name) \(size.width)x\(size.height)"
        }
        #expect(sizes == expected)
    }

    @Test("a content item's shape: stubs with links, contentItem mime type, no management keys")
    func contentItemValues() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let post = try #require(try shaper.item(id: Self.postId))
        let json = try shaper.full(post, context: ExportFixtures.context, expand: .none)
        #expect(json["typeCategory"] == "ContentType")
        #expect(json["mimeType"] == "contentItem")
        #expect(json["fileGroup"] == "contentItem")
        #expect(json["fileExtension"] == nil)
        #expect(json["language"] == "en-US")
        #expect(json["translatable"] == true)
        #expect(json["taxonomies"] == nil)
        let author = try #require(json.at("fields.starter-blog-post_author"))
        #expect(author["id"] == .string(Self.authorId))
        #expect(author["name"] == "Alex Read")
        #expect(author["typeCategory"] == "ContentType")
        #expect(
            author.at("links.0.href")
                == .string(
                    "http://127.0.0.1:8411/content/published/api/v1.1/items/\(Self.authorId)?channelToken="
                        + ExportFixtures.encodedToken))
        #expect(json.at("fields.starter-blog-post_download_media")?.arrayValue?.count == 3)
        #expect(json.at("fields.starter-blog-post_title") == "Developing Content Layout for Content and Experience")
    }

    @Test("expand replaces references with full items one level deep")
    func expansion() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let post = try #require(try shaper.item(id: Self.postId))
        let type = shaper.type(of: post)

        let all = try shaper.full(post, context: ExportFixtures.context, expand: try ExpandSpec.parse("all", for: type))
        #expect(all["taxonomies"] == ["items": []])
        let author = try #require(all.at("fields.starter-blog-post_author"))
        #expect(author["fields"] != nil)
        #expect(author.at("fields.starter-blog-author_name") == "Alex Read")
        #expect(author["taxonomies"] == nil)
        // The expanded author's own avatar reference stays a stub.
        #expect(
            author.at("fields.starter-blog-author_avatar")?.keySet == ["id", "type", "typeCategory", "name", "links"])
        #expect(author.at("links.0.href")?.stringValue?.contains("expand") == false)
        let header = try #require(all.at("fields.starter-blog-post_header_image"))
        #expect(header.at("fields.renditions.0.name") == "Thumbnail")
        #expect(
            all.at("fields.starter-blog-post_download_media")?.arrayValue?.allSatisfy { $0["fields"] != nil } == true)

        let one = try shaper.full(
            post, context: ExportFixtures.context,
            expand: try ExpandSpec.parse("fields.starter-blog-post_author", for: type))
        #expect(one.at("fields.starter-blog-post_author.fields") != nil)
        #expect(one.at("fields.starter-blog-post_header_image.fields") == nil)
        #expect(one["taxonomies"] == nil)
        #expect(one.at("links.0.href")?.stringValue?.hasSuffix("&expand=fields.starter-blog-post_author") == true)
    }

    @Test("list entries: a summary, or the full item with a self link when all fields are asked")
    func listEntries() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        let post = try #require(try shaper.item(id: Self.postId))
        let summary = shaper.summaryEntry(ItemSummary(post), context: ExportFixtures.context)
        #expect(summary.keySet == ["id", "type", "name", "description", "links"])
        #expect(summary.at("links")?.arrayValue?.count == 1)
        #expect(summary.at("links.0.rel") == "self")

        let full = try shaper.listEntry(post, context: ExportFixtures.context, expand: .none)
        #expect(full["fields"] != nil)
        #expect(full["typeCategory"] == "ContentType")
        #expect(full.at("links")?.arrayValue?.count == 1)
        #expect(full["taxonomies"] == ["items": []])
    }

    @Test("lookups by id and by slug (exact, then ignoring case)")
    func lookups() throws {
        let (shaper, cache) = try blog()
        defer { cache.remove() }
        #expect(try shaper.item(id: Self.postId)?.name == "Developing Content Layout for Content and Experience")
        #expect(try shaper.item(id: "CORE-nope") == nil)
        let slug = "blogsite-blogsite-image-1481786051457-author-4(427755)"
        #expect(try shaper.item(slug: slug)?.id == Self.imageId)
        #expect(try shaper.item(slug: slug.uppercased())?.id == Self.imageId)
        #expect(try shaper.item(slug: "nope") == nil)
    }

    // MARK: - Other generations through the shaper

    @Test("gen A: stubs get names and categories, the asset gets renditions from its header size")
    func generationAShape() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let shaper = DeliveryShaper(content: try loadExport([ExportFixtures.genA], cache: cache))
        let post = try #require(try shaper.item(id: "CORE0822912B2FE4404F841CFEF4A43C9828"))
        let json = try shaper.full(post, context: ExportFixtures.context, expand: .none)
        #expect(json.at("fields.starter-blog-post_header_image.name") == "photo one.jpg")
        #expect(json.at("fields.starter-blog-post_header_image.typeCategory") == "DigitalAssetType")
        #expect(json.at("fields.starter-blog-post_header_image.type") == "DigitalAsset")
        #expect(json["links"]?.arrayValue?.count == 3)  // gen A has links: null

        let photo = try #require(try shaper.item(id: "CONTD86002B8BA2545DDAA444CBF1A69D332"))
        let asset = try shaper.full(photo, context: ExportFixtures.context, expand: .none)
        #expect(asset["typeCategory"] == "DigitalAssetType")
        #expect(asset["mimeType"] == "image/jpeg")
        #expect(asset.at("fields.mimeType") == "image/jpeg")
        #expect(asset["fileExtension"] == "jpg")
        #expect(asset["slug"] == "photo-one")
        #expect(asset["externalFile"] == nil)
        #expect(asset.at("fields.metadata") == ["width": "40", "height": "30"])
        #expect(asset.at("fields.version") == "1")
        let names = asset.at("fields.renditions")?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == ["Thumbnail", "Medium", "Large", "Small"])  // the uithumbnail entry is replaced
        #expect(asset.at("fields.native.links.0.href")?.stringValue?.contains("/native/photo%20one.jpg?") == true)
    }

    @Test("gen B: null fields stay null, datetime fields keep their zone")
    func generationBShape() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.genB], cache: cache)
        let shaper = DeliveryShaper(content: content)
        let empty = try #require(content.items.first { $0.name == "Espresso basics" })
        let json = try shaper.full(empty, context: ExportFixtures.context, expand: .all)
        #expect(json.at("fields.search-article_topic") == .null)
        #expect(json.at("fields.search-article_keywords") == .null)
        #expect(json["typeCategory"] == "ContentType")
        let full = try #require(content.items.first { $0.name == "Cold brew" })
        let value = try shaper.full(full, context: ExportFixtures.context, expand: .none)
        #expect(
            value.at("fields.search-article_published")
                == ["value": "2019-03-01T08:00:00.000-05:00", "timezone": "America/New_York"])
        #expect(value.at("fields.search-article_keywords") == ["coffee", "cold"])
    }

    @Test("gen D: the asset gets renditions although the export has none; stubs lose fileExtension")
    func generationDShape() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let shaper = DeliveryShaper(content: try loadExport([ExportFixtures.genD], cache: cache))
        let face = try #require(try shaper.item(id: "CONT6C7D8E9F0A1B42C3D4E5F6A7B8C9D0E1"))
        let json = try shaper.full(face, context: ExportFixtures.context, expand: .none)
        #expect(json["language"] == nil)
        #expect(json["translatable"] == false)
        #expect(json["fileExtension"] == "png")
        #expect(json["varSetId"] == nil)
        #expect(json["createdByUser"] == nil)
        #expect(json.at("fields.renditions")?.arrayValue?.count == 4)
        let png = json.at("fields.renditions.2.formats")?.arrayValue?.first { $0["format"] == "png" }
        #expect(png?["size"]?.intValue == face.nativeSize)  // Large png is the native file itself
        #expect(png?["mimeType"] == "image/png")

        let banner = try #require(try shaper.item(id: "CORE04FE1CC166BC4736AC48971DFD95BBCA"))
        let body = try shaper.full(banner, context: ExportFixtures.context, expand: .none)
        #expect(body.at("fields.banner-image")?.keySet == ["id", "type", "typeCategory", "name", "links"])
        #expect(body["mimeType"] == "contentItem")
        #expect(body["workflowInstances"] == nil)
    }

    @Test("a non-image asset has no renditions; dates without milliseconds gain them")
    func nonImageAndDates() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let root = try writeExport(
            in: folder,
            items: [
                "File/CONT01.json": """
                {"id":"CONT01","type":"File","name":"Guide (v2).pdf","createdDate":{"value":"2020-06-17T00:00:00Z","timezone":"UTC"},
                 "updatedDate":"2020-06-18T10:11:12.5+02:00","fields":{"native":{"links":[]},"mimeType":"application/pdf","size":1}}
                """,
                "Note/CORE01.json": """
                {"id":"CORE01","type":"Note","name":"n","language":"fr-FR","translatable":true,
                 "fields":{"when":{"value":"2020-06-17T00:00:00-06:00","timezone":"America/Denver"},"doc":{"id":"CONT01","type":"File"}}}
                """,
            ])
        try folder.write("contentexport/ContentItems/File/files/CONT01/Guide (v2).pdf", "%PDF-1.4 tiny")
        let content = try loadExport([root], cache: cache)
        #expect(content.issues.isEmpty, "\(content.issues)")
        let shaper = DeliveryShaper(content: content)
        let file = try #require(try shaper.item(id: "CONT01"))
        let json = try shaper.full(file, context: ExportFixtures.context, expand: .none)
        #expect(json["typeCategory"] == "DigitalAssetType")  // inferred from fields.native
        #expect(json["fileGroup"] == "Files")
        #expect(json["mimeType"] == "application/pdf")
        #expect(json["fileExtension"] == "pdf")
        #expect(json.at("fields.renditions") == nil)
        #expect(json.at("fields.size") == 13)
        #expect(json.at("createdDate.value") == "2020-06-17T00:00:00.000Z")
        #expect(json.at("updatedDate") == ["value": "2020-06-18T10:11:12.500+02:00", "timezone": "UTC"])
        #expect(json.at("fields.native.links.0.href")?.stringValue?.contains("/native/Guide%20%28v2%29.pdf?") == true)

        let note = try #require(try shaper.item(id: "CORE01"))
        let body = try shaper.full(note, context: ExportFixtures.context, expand: .all)
        #expect(body.at("fields.when.value") == "2020-06-17T00:00:00.000-06:00")
        #expect(body.at("fields.doc.fields.mimeType") == "application/pdf")
        #expect(body["language"] == "fr-FR")
    }

    @Test(
        "dates are written with exactly three digits of milliseconds",
        arguments: [
            ("2020-06-17T00:00:00Z", "2020-06-17T00:00:00.000Z"),
            ("2020-06-17T00:00:00.1Z", "2020-06-17T00:00:00.100Z"),
            ("2020-06-17T00:00:00.123456-06:00", "2020-06-17T00:00:00.123-06:00"),
            ("2020-06-17T00:00:00.123Z", "2020-06-17T00:00:00.123Z"),
            ("2020-06-17T10:30Z", "2020-06-17T10:30:00.000Z"),
            ("2020-06-17 10:30:05", "2020-06-17T10:30:05.000Z"),
        ])
    func milliseconds(input: String, expected: String) throws {
        let content = ChannelContent(items: [
            ExportItem(
                id: "CORE1", type: "Note", typeCategory: "ContentType", name: "n",
                createdDate: ["value": .string(input), "timezone": "UTC"])
        ])
        let shaper = DeliveryShaper(content: content)
        let json = try shaper.full(content.items[0], context: ExportFixtures.context, expand: .none)
        #expect(json.at("createdDate.value") == .string(expected))
    }

    @Test("items built by hand (without the loader) shape too")
    func handMadeItems() throws {
        let asset = ExportItem(
            id: "CONT1", type: "Image", typeCategory: "DigitalAssetType", name: "a b.webp",
            fields: ["metadata": ["width": "10", "height": "5"]], imageSize: ImageSize(width: 10, height: 5))
        let item = ExportItem(
            id: "CORE1", type: "Note", typeCategory: "ContentType", name: "n",
            fields: ["pic": ["id": "CONT1", "type": "Image"]])
        let shaper = DeliveryShaper(content: ChannelContent(items: [asset, item]))
        let json = try shaper.full(item, context: ExportFixtures.context, expand: .all)
        #expect(json.at("fields.pic.mimeType") == "image/webp")
        #expect(json.at("fields.pic.fileGroup") == "Images")
        #expect(json.at("fields.pic.fields.renditions.0.formats.2.size") == 0)
        let stub = try shaper.full(item, context: ExportFixtures.context, expand: .none)
        #expect(stub.at("fields.pic.name") == "a b.webp")
        #expect(stub.at("fields.pic.typeCategory") == "DigitalAssetType")
    }
}
