import ChannelServer
import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import Testing

/// Native files, renditions and thumbnails of the sample's images, streamed to disk by DeliveryKit.
@Suite("End to end: downloads")
struct DownloadTests {
    let server: SampleServer
    let folder: String

    init() throws {
        server = try SampleServer()
        folder = temporaryFolder()
    }

    /// A JPEG, the first PNG, the portrait and the image narrower than a thumbnail.
    static func chosenImages() throws -> [SampleAsset] {
        let images = try SampleAsset.images()
        let jpeg = try #require(images.first { $0.name.hasSuffix(".jpg") })
        let png = try #require(images.first { $0.name.hasSuffix(".png") })
        let portrait = try #require(images.first { ($0.height ?? 0) > ($0.width ?? 0) })
        let narrow = try #require(images.first { ($0.width ?? 0) < 150 })
        return [jpeg, png, portrait, narrow]
    }

    @Test("native files are byte-identical to the export's files, under the caller's names")
    func natives() async throws {
        defer { removeFolder(folder) }
        let client = try server.client()
        for image in try Self.chosenImages() {
            let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "native-\(image.id)")
            let result = try await client.download(job)
            let expected = try #require(fileBytes(image.nativePath))
            #expect(result.path == folder + "/native-\(image.id)")
            #expect(result.bytes == Int64(expected.count) && result.resumedFrom == 0)
            #expect(fileBytes(result.path) == expected, "native of \(image.id)")
            #expect(result.contentType == (image.name.hasSuffix(".png") ? "image/png" : "image/jpeg"))
            #expect(result.etag != nil)
        }
        #expect(folderEntries(folder).allSatisfy { !$0.hasSuffix(".part") && !$0.hasSuffix(".meta") })
    }

    @Test("every advertised rendition decodes, in its format, at the advertised and computed size")
    func renditions() async throws {
        defer { removeFolder(folder) }
        let client = try server.client()
        let engine = VipsRenditions(directory: folder + "/vips")
        var checked = 0
        for image in try Self.chosenImages() {
            let asset = try await client.fetch(DeliveryAPI.readAsset(id: image.id))
            let renditions = try #require(asset.digitalAsset?.renditions)
            let width = try #require(image.width)
            let height = try #require(image.height)
            #expect(Set(renditions.map(\.name)) == ["Thumbnail", "Small", "Medium", "Large"])
            for rendition in renditions {
                var formats = rendition.formats.map(\.format)
                if !formats.contains("png") { formats.append("png") }
                for format in formats {
                    let name = "\(image.id)-\(rendition.name).\(format)"
                    let request = DeliveryAPI.downloadRendition(
                        id: image.id, renditionName: rendition.name, format: format)
                    let result = try await client.download(DownloadJob(request, folder: folder, name: name))
                    let bytes = try #require(fileBytes(result.path))
                    #expect(ImageMagic(bytes) == ImageMagic(format: format), "\(name) starts like a \(format)")
                    let decoded = try #require(engine.nativeSize(of: result.path), "\(name) decodes")
                    let computed = try #require(
                        SystemRendition.named(rendition.name)?.size(forNative: ImageSize(width: width, height: height)))
                    #expect(decoded.width == computed.width && decoded.height == computed.height, "\(name)")
                    if let advertised = rendition.format(format) {
                        #expect(advertised.width == decoded.width && advertised.height == decoded.height, "\(name)")
                    }
                    #expect(result.bytes == Int64(bytes.count))
                    checked += 1
                }
            }
        }
        #expect(checked >= 4 * 4 * 3)
    }

    @Test("the SDK-shaped thumbnail of an image is a WebP of the Thumbnail size")
    func thumbnail() async throws {
        defer { removeFolder(folder) }
        let client = try server.client()
        let engine = VipsRenditions(directory: folder + "/vips")
        for image in try Self.chosenImages() {
            let asset = try await client.fetch(DeliveryAPI.readAsset(id: image.id))
            let result = try await client.download(
                DownloadJob(DeliveryAPI.downloadThumbnail(for: asset), folder: folder, name: "thumb-\(image.id)"))
            let bytes = try #require(fileBytes(result.path))
            #expect(ImageMagic(bytes) == .webp)
            #expect(result.contentType == "image/webp")
            let size = try #require(engine.nativeSize(of: result.path))
            let width = try #require(image.width)
            #expect(size.width == min(150, width))
        }
        let thumbnails = server.requests.filter { $0.apiPath.hasSuffix("/thumbnail") }
        #expect(thumbnails.count == 4 && thumbnails.allSatisfy { $0.target.contains("type=uithumbnail") })
    }
}
