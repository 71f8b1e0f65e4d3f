import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

@Suite("Export loading")
struct ExportLoaderTests {
    // MARK: - The real 2021 export (gen C)

    @Test("the 2021 BlogTemplate export zip loads all 29 items and 4 types")
    func blog2021() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        #expect(content.items.count == 29)
        #expect(content.issues.isEmpty, "\(content.issues)")
        #expect(
            Set(content.contentTypes.keys) == [
                "Starter-Blog-Author", "Starter-Blog-Post", "Image", "Starter-Blog-Image",
            ])
        #expect(content.contentTypes["Image"]?.typeCategory == "DigitalAssetType")
        #expect(
            content.contentTypes["Starter-Blog-Post"]?.field(named: "starter-blog-post_author")?.referenceTypes == [
                "Starter-Blog-Author"
            ])
        #expect(content.variationSets.count == 29)
        #expect(content.taxonomies.isEmpty)
        #expect(content.roots.count == 1)
        #expect(content.roots[0].hasSuffix("/Content Template of BlogTemplate"))

        let image = try #require(content.items.first { $0.id == "CONT1B5A45885C7F40B39E78E2E3182CF950" })
        #expect(image.isDigitalAsset)
        #expect(image.mimeType == "image/jpeg")
        #expect(image.fileGroup == "Images")
        #expect(image.fileExtension == "jpg")
        #expect(image.imageSize == ImageSize(width: 256, height: 256))
        #expect(image.nativeSize == 10761)
        let native = try #require(image.nativeFile)
        #expect(native.hasSuffix("/ContentItems/Image/files/CONT1B5A45885C7F40B39E78E2E3182CF950/Author 4(427755).jpg"))
        #expect(FileManager.default.fileExists(atPath: native))

        let post = try #require(content.items.first { $0.id == "CORE0676665F53764E3D9C2103E2FD42DF6F" })
        #expect(post.typeCategory == "ContentType")
        #expect(post.mimeType == "contentItem")
        #expect(
            post.referenceFields == [
                "starter-blog-post_download_media", "starter-blog-post_header_image", "starter-blog-post_author",
            ])
        #expect(post.language == "en-US")
        #expect(post.translatable == true)
    }

    @Test("items are ordered by type folder, then id")
    func order() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let keys = content.items.map { ($0.typeFolder ?? "") + "/" + $0.id }
        #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(content.items.first?.typeFolder == "Image")
    }

    @Test("a second load reuses the extraction instead of unpacking again")
    func extractionReused() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let first = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(entries.count == 1)
        let marker = cache.path + "/" + entries[0] + "/.oceq-complete"
        #expect(FileManager.default.fileExists(atPath: marker))
        let before = try FileManager.default.attributesOfItem(atPath: first.roots[0])[.modificationDate] as? Date
        let second = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let after = try FileManager.default.attributesOfItem(atPath: second.roots[0])[.modificationDate] as? Date
        #expect(first.roots == second.roots)
        #expect(before == after)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path) == entries)
    }

    // MARK: - Locating content

    @Test(
        "a PATH may be the content folder, a folder above it, a zip or a site template zip",
        arguments: [
            ("gen-b-2019/Content Template of search_template", 3),
            ("gen-b-2019", 3),
            ("gen-d-2023", 4),
            ("gen-d-2023/assets/contenttemplate", 4),
            ("gen-a-2018", 5),
            ("site-template.zip", 3),
        ])
    func locating(relative: String, items: Int) throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.exports + "/" + relative], cache: cache)
        #expect(content.items.count == items)
        #expect(content.roots.count == 1)
    }

    @Test("the site template zip's nested export.zip is extracted inside the cache")
    func siteTemplateNested() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.siteTemplateZip], cache: cache)
        let root = try #require(content.roots.first)
        #expect(root.hasSuffix("/Content Template of search_template"))
        let resolvedCache = URL(fileURLWithPath: cache.path).resolvingSymlinksInPath().path
        #expect(root.hasPrefix(resolvedCache + "/"))
        #expect(content.issues.isEmpty, "\(content.issues)")
    }

    @Test("several paths merge into one channel; a later duplicate id is an issue and the first wins")
    func merging() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport(
            [ExportFixtures.genB, ExportFixtures.genD, ExportFixtures.siteTemplateZip], cache: cache)
        #expect(content.roots.count == 3)
        #expect(content.items.count == 7)
        let duplicates = content.issues.filter { $0.message.contains("duplicate id") }
        #expect(duplicates.count == 3)
        #expect(duplicates.allSatisfy { $0.file.contains("/Content Template of search_template/") })
        let first = try #require(content.items.first)
        #expect(first.sourceFile.hasPrefix(ExportFixtures.genB))
        #expect(
            Set(content.contentTypes.keys) == [
                "Search-Article", "Search-Topic", "Knowledge-Banner", "Knowledge-Employee-Detail", "Image",
            ])
        #expect(content.variationSets.count == 7)
    }

    // MARK: - Generations

    @Test("gen A: DigitalAsset without a type file, {id,type} stubs, metadata {} read from the image headers")
    func generationA() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.genA], cache: cache)
        #expect(content.issues.isEmpty, "\(content.issues)")
        let assetType = try #require(content.contentTypes["DigitalAsset"])
        #expect(assetType.isInferred)
        #expect(assetType.typeCategory == "DigitalAssetType")
        #expect(assetType.field(named: "native")?.datatype == "json")
        #expect(assetType.field(named: "metadata") != nil)
        #expect(content.contentTypes["Starter-Blog-Post"]?.typeCategory == "ContentType")

        let sizes = Dictionary(
            uniqueKeysWithValues: content.items.filter(\.isDigitalAsset).map { ($0.name, $0.imageSize) })
        #expect(sizes["photo one.jpg"] == ImageSize(width: 40, height: 30))
        #expect(sizes["logo.png"] == ImageSize(width: 20, height: 10))
        #expect(sizes["spinner.gif"] == ImageSize(width: 8, height: 6))

        let photo = try #require(content.items.first { $0.name == "photo one.jpg" })
        #expect(photo.typeCategory == "DigitalAssetType")
        #expect(photo.mimeType == "image/jpeg")  // gen A says image/jpg
        #expect(photo.nativeSize != 425392)  // the file, not fields.size
        #expect(photo.slug == "photo-one")  // gen A assets have none; made from the name
        #expect(photo.nativeFile?.hasSuffix("/files/CONTD86002B8BA2545DDAA444CBF1A69D332/photo one.jpg") == true)

        let post = try #require(content.items.first { $0.type == "Starter-Blog-Post" })
        #expect(post.typeCategory == "ContentType")
        let author = try #require(post.fields["starter-blog-post_author"])
        #expect(author["name"] == "Ana Roast")
        #expect(author["typeCategory"] == "ContentType")
        let media = try #require(post.fields["starter-blog-post_download_media"]?.arrayValue)
        #expect(media.map { $0["name"] } == ["logo.png", "spinner.gif"])
        #expect(media.allSatisfy { $0["typeCategory"] == "DigitalAssetType" })
    }

    @Test("gen B: no typeCategory anywhere, null field values, categories inferred")
    func generationB() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.genB], cache: cache)
        #expect(content.issues.isEmpty, "\(content.issues)")
        #expect(content.contentTypes.values.allSatisfy { $0.typeCategory == "ContentType" })
        #expect(content.items.allSatisfy { $0.typeCategory == "ContentType" && !$0.isDigitalAsset })
        let empty = try #require(content.items.first { $0.name == "Espresso basics" })
        #expect(empty.fields["search-article_keywords"] == .null)
        #expect(empty.fields["search-article_topic"] == .null)
        #expect(empty.referenceFields == ["search-article_topic"])
        let full = try #require(content.items.first { $0.name == "Cold brew" })
        #expect(full.fields["search-article_topic"]?["typeCategory"] == "ContentType")
        #expect(
            content.contentTypes["Search-Article"]?.field(named: "search-article_keywords")?.valuecount == .list)
    }

    @Test("gen D: top-level mimeType/fileGroup/fileExtension, no renditions, stubs with fileExtension")
    func generationD() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([ExportFixtures.genD], cache: cache)
        #expect(content.issues.isEmpty, "\(content.issues)")
        let banner = try #require(content.items.first { $0.type == "Knowledge-Banner" })
        #expect(banner.mimeType == "contentItem")
        #expect(banner.fileGroup == "contentItem")
        #expect(banner.fileExtension == nil)
        let face = try #require(content.items.first { $0.name == "face.png" })
        #expect(face.mimeType == "image/png")
        #expect(face.fileExtension == "png")
        #expect(face.imageSize == ImageSize(width: 32, height: 32))
        #expect(face.language == "en-US")
        #expect(face.translatable == false)
        #expect(content.contentTypes["Image"]?.raw["displayName"] == "Image")
        #expect(content.variationSets.first { $0.masterItemId == face.id }?.items.first?.value == "en-US")
    }

    // MARK: - Fingerprint

    @Test("the fingerprint is stable across loads and locations and changes with the content")
    func fingerprint() throws {
        let cache = try TemporaryFolder()
        let copy = try TemporaryFolder()
        defer {
            cache.remove()
            copy.remove()
        }
        let first = try loadExport([ExportFixtures.genA], cache: cache)
        let again = try loadExport([ExportFixtures.genA], cache: cache)
        #expect(first.fingerprint == again.fingerprint)
        #expect(first.fingerprint.count == 32)
        #expect(first.fingerprint.allSatisfy { $0.isHexDigit })

        try FileManager.default.copyItem(atPath: ExportFixtures.genA, toPath: copy.path + "/elsewhere")
        let moved = try loadExport([copy.path + "/elsewhere"], cache: cache)
        #expect(moved.fingerprint == first.fingerprint)

        // One changed byte in an item file.
        let post =
            copy.path
            + "/elsewhere/contentexport/ContentItems/Starter-Blog-Post/CORE0822912B2FE4404F841CFEF4A43C9828.json"
        var text = try String(contentsOfFile: post, encoding: .utf8)
        text = text.replacingOccurrences(of: "Roasting at home", with: "Roasting at hone")
        try text.write(toFile: post, atomically: false, encoding: .utf8)
        let edited = try loadExport([copy.path + "/elsewhere"], cache: cache)
        #expect(edited.fingerprint != first.fingerprint)

        // A changed native file.
        let logo =
            copy.path
            + "/elsewhere/contentexport/ContentItems/DigitalAsset/files/CONT0A1B2C3D4E5F46A7B8C9D0E1F2A3B4C5/logo.png"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: logo))
        bytes[bytes.count - 5] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: logo))
        let repainted = try loadExport([copy.path + "/elsewhere"], cache: cache)
        #expect(repainted.fingerprint != edited.fingerprint)

        // The zip and the same export as a folder are different exports, but each is stable.
        let zip1 = try loadExport([ExportFixtures.blog2021Zip], cache: cache)
        let otherCache = try TemporaryFolder()
        defer { otherCache.remove() }
        let zip2 = try loadExport([ExportFixtures.blog2021Zip], cache: otherCache)
        #expect(zip1.fingerprint == zip2.fingerprint)
        #expect(zip1.fingerprint != first.fingerprint)
    }
}
