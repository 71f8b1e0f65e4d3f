import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("Renditions with libvips", .serialized)
struct RenditionTests {
    let channel: TestChannel
    static let image = "CONT3110A512B76A4F8AB544208A59896B78"  // 1900 × 1200 JPEG
    static let post = "CORE0676665F53764E3D9C2103E2FD42DF6F"

    init() throws {
        channel = try TestChannel()
    }

    static func size(_ name: String, _ width: Int, _ height: Int) -> ImageSize? {
        SystemRendition.named(name)?.size(forNative: ImageSize(width: width, height: height))
    }

    @Test("system sizes: never upscaled, heights rounded down")
    func sizes() {
        #expect(Self.size("Thumbnail", 1900, 1200) == ImageSize(width: 150, height: 94))
        #expect(Self.size("Small", 1900, 1200) == ImageSize(width: 300, height: 189))
        #expect(Self.size("Medium", 1440, 540) == ImageSize(width: 1024, height: 384))
        #expect(Self.size("Large", 1900, 1200) == ImageSize(width: 1900, height: 1200))
        #expect(Self.size("small", 200, 200) == ImageSize(width: 200, height: 200))
        #expect(Self.size("Huge", 200, 200) == nil)
    }

    @Test(
        "each rendition decodes to the advertised size in each format",
        arguments: ["Thumbnail", "Small", "Medium", "Large"], ["jpg", "png", "webp"])
    func decodedSizes(name: String, format: String) async throws {
        let response = try await channel.get("/assets/\(Self.image)/\(name)?format=\(format)&type=responsiveimage")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == MediaTypes.forFileName("x.\(format)"))
        let file = NSTemporaryDirectory() + "oceq-rendition-\(UUID().uuidString).\(format)"
        try Data(response.body).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let engine = VipsRenditions(directory: NSTemporaryDirectory())
        let decoded = try #require(engine.nativeSize(of: file))
        let expected = Self.size(name, 1900, 1200)!
        #expect(decoded.width == expected.width && decoded.height == expected.height)
    }

    @Test("renditions answer ETag/304 and Range/206 like native files")
    func conditional() async throws {
        let whole = try await channel.get("/assets/\(Self.image)/Medium?format=jpg")
        let tag = try #require(whole.header("ETag"))
        await #expect(
            try channel.get("/assets/\(Self.image)/Medium?format=jpg", headers: ["If-None-Match": tag]).status == 304)
        let part = try await channel.get("/assets/\(Self.image)/Medium?format=jpg", headers: ["Range": "bytes=0-99"])
        #expect(part.status == 206)
        #expect(part.body == Array(whole.body.prefix(100)))
    }

    @Test("the SDK's thumbnail forms work")
    func thumbnails() async throws {
        let ui = try await channel.get("/assets/\(Self.image)/thumbnail?type=uithumbnail")
        #expect(ui.status == 200 && ui.header("Content-Type") == "image/webp")
        let video = try await channel.get("/assets/\(Self.image)/Thumbnail?format=jpg&type=advancedvideo")
        #expect(video.status == 200 && video.header("Content-Type") == "image/jpeg")
    }

    @Test("unknown renditions and formats, and content items, get 404 with a reason")
    func errors() async throws {
        let unknown = try await channel.get("/assets/\(Self.image)/Huge?format=jpg")
        #expect(unknown.status == 404)
        #expect(try JSON.parse(unknown.body)["detail"]!.stringValue!.contains("Thumbnail, Medium, Large, Small"))
        #expect(try await channel.get("/assets/\(Self.image)/Small?format=bmp").status == 404)
        #expect(try await channel.get("/assets/\(Self.post)/Small?format=jpg").status == 404)
    }

    @Test("concurrent first requests for one rendition all get the same complete file")
    func concurrentFirstRequests() async throws {
        let port = channel.port
        let results = Locked<[[UInt8]]>([])
        await OffPool.run {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let response = try? RawHTTPClient.sendSynchronously(
                    port: port,
                    target:
                        "/content/published/api/v1.1/assets/\(Self.image)/Small?format=webp&channelToken=\(TestChannel.token)"
                )
                results.withLock { $0.append(response?.body ?? []) }
            }
        }
        let bodies = results.withLock { $0 }
        #expect(bodies.count == 8)
        #expect(Set(bodies).count == 1)
        #expect(bodies[0].count > 100)
    }
}

@Suite("An image libvips cannot decode")
struct BrokenImageTests {
    @Test("keeps its native file, lists no renditions, and renditions answer 404 with the reason")
    func brokenImage() async throws {
        // Copy the 2021 export, then overwrite one image's bytes with garbage.
        let folder = NSTemporaryDirectory() + "oceq-broken-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await ChildProcess(
            "/usr/bin/env",
            [
                "python3", "-c", "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
                TestChannel.fixtureZip, folder,
            ]
        ).wait()
        let image = "CONT3110A512B76A4F8AB544208A59896B78"
        let file = "\(folder)/Content Template of BlogTemplate/ContentItems/Image/files/\(image)/Header 11(430896).jpg"
        try Data("this is not a jpeg at all".utf8).write(to: URL(fileURLWithPath: file))

        let channel = try TestChannel(paths: [folder])
        let item = try await channel.json("/items/\(image)")
        #expect(item["fields"]?["renditions"] == nil)
        let native = try await channel.get("/assets/\(image)/native")
        #expect(native.status == 200 && native.text == "this is not a jpeg at all")
        let rendition = try await channel.get("/assets/\(image)/Small?format=jpg")
        #expect(rendition.status == 404)
        #expect(try JSON.parse(rendition.body)["detail"]!.stringValue!.contains("cannot be decoded"))
    }
}
