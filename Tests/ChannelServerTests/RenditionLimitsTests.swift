import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Pixel bombs: images over the pixel limit get no rendition, and renditions never hold JSON answers.
@Suite("rendition limits: pixel bombs", .serialized)
struct RenditionLimitsTests {
    /// An export folder with one PNG asset, CONT01, of `width` × `height` black pixels.
    static func export(width: Int, height: Int, in folder: TemporaryFolder) throws -> String {
        let root = try writeExport(
            in: folder,
            items: [
                "Image/CONT01.json":
                    #"{"id":"CONT01","type":"Image","typeCategory":"DigitalAssetType","name":"big.png","fields":{"metadata":{}}}"#
            ])
        try folder.write(
            "contentexport/ContentItems/Image/files/CONT01/big.png", Data(PixelBomb.png(width: width, height: height)))
        return root
    }

    /// Loads the export with `maximumPixels` and serves it as `oceq serve` does.
    static func serve(_ root: String, maximumPixels: Int, cache: String) throws -> (ChannelService, HTTPServer) {
        var options = ServeOptions()
        options.paths = [root]
        options.token = "limits-token-1"
        options.cacheDirectory = cache
        options.maximumImagePixels = maximumPixels
        let service = try ChannelService.load(options)
        let router = service.router
        let server = try HTTPServer(port: 0, threads: 2, handler: { router.handleDeferringRenditions($0) })
        return (service, server)
    }

    static let medium = "/content/published/api/v1.1/assets/CONT01/Medium?format=jpg&channelToken=limits-token-1"

    @Test("an image over --max-image-pixels is refused from its header, before any decoding")
    func refused() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = try Self.export(width: 3000, height: 3000, in: folder)
        let (_, server) = try Self.serve(root, maximumPixels: 4_000_000, cache: folder.path + "/cache")
        defer { server.stop() }
        let response = try await RawHTTPClient.send(port: server.port, target: Self.medium)
        #expect(response.status == 422)
        #expect(response.text.contains("3000 × 3000 pixels, more than the 4000000"))
        let native = try await RawHTTPClient.send(
            port: server.port, target: "/content/published/api/v1.1/assets/CONT01/native?channelToken=limits-token-1")
        #expect(native.status == 200)
    }

    @Test("an image under the limit is rendered, on the slow pool, and then answered from the cache")
    func underTheLimit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = try Self.export(width: 1200, height: 800, in: folder)
        let (service, server) = try Self.serve(root, maximumPixels: 4_000_000, cache: folder.path + "/cache")
        defer { server.stop() }
        let request = ServerRequest(method: "GET", target: Self.medium, headers: [:], clientAddress: "-")
        #expect(service.router.handleDeferringRenditions(request).later != nil)
        let anonymous = ServerRequest(
            method: "GET", target: "/content/published/api/v1.1/assets/CONT01/Medium?format=jpg", headers: [:],
            clientAddress: "-")
        #expect(service.router.handleDeferringRenditions(anonymous).later == nil)
        #expect(service.router.handleDeferringRenditions(anonymous).status == 403)
        let response = try await RawHTTPClient.send(port: server.port, target: Self.medium)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(service.router.handleDeferringRenditions(request).later == nil)
    }
}
