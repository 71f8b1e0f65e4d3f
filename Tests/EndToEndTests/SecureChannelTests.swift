import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// `oceq serve --bearer`: every request needs `Authorization: Bearer`, and DeliveryKit sends it on
/// every request, downloads included (Oracle's SDK drops it on most).
@Suite("End to end: a secure channel")
struct SecureChannelTests {
    static let bearer = "e2e-bearer-4b8e02aa"

    let server: SampleServer

    init() throws {
        server = try SampleServer(bearer: Self.bearer)
    }

    @Test("with the bearer, searches, reads, paging and every kind of download succeed, each sending it")
    func everyRequestCarriesTheBearer() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let client = try server.client()
        var listed = 0
        for try await _ in client.items(DeliveryAPI.listAssets().limit(100)) { listed += 1 }
        #expect(listed == 146)
        let image = try #require(try SampleAsset.images().first)
        let asset = try await client.fetch(DeliveryAPI.readAsset(id: image.id))
        _ = try await client.fetch(DeliveryAPI.listVariations(id: image.id))
        _ = try await client.fetch(DeliveryAPI.listTaxonomies())
        let native = try await client.download(
            DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "native"))
        #expect(fileBytes(native.path) == fileBytes(image.nativePath))
        let medium = try await client.download(
            DownloadJob(
                DeliveryAPI.downloadRendition(id: image.id, renditionName: "Medium", format: "jpg"), folder: folder,
                name: "medium.jpg"))
        #expect(ImageMagic(try #require(fileBytes(medium.path))) == .jpeg)
        let thumbnail = try await client.download(
            DownloadJob(DeliveryAPI.downloadThumbnail(for: asset), folder: folder, name: "thumb"))
        #expect(ImageMagic(try #require(fileBytes(thumbnail.path))) == .webp)

        let requests = server.requests
        #expect(requests.count == 2 + 3 + 3)
        for request in requests {
            #expect(request.header("Authorization") == "Bearer \(Self.bearer)", "\(request.apiPath)")
            #expect(request.status == 200, "\(request.apiPath)")
        }
        #expect(
            Set(requests.map { $0.apiPath.split(separator: "/").last.map(String.init) ?? "" }).isSuperset(of: [
                "items", "native", "Medium", "thumbnail", "variations", "taxonomies",
            ]))
    }

    @Test("without the bearer, or with a wrong one, every request is a typed 401 and no file is written")
    func missingOrWrongBearer() async throws {
        let folder = temporaryFolder()
        defer { removeFolder(folder) }
        let image = try #require(try SampleAsset.images().first)
        for bearer in [nil, "e2e-wrong-bearer-77"] as [String?] {
            var configuration = try DeliveryConfiguration(
                url: server.origin, channelToken: server.token, bearerToken: bearer)
            configuration.retry = .none
            let client = DeliveryClient(configuration: configuration, transport: CurlTransport(), clock: FakeClock())
            let list = await #expect(throws: DeliveryError.self) { try await client.fetch(DeliveryAPI.listAssets()) }
            let job = DownloadJob(DeliveryAPI.downloadNative(id: image.id), folder: folder, name: "native")
            let download = await #expect(throws: DeliveryError.self) { try await client.download(job) }
            for error in [list, download] {
                guard case .http(let http)? = error else {
                    Issue.record("expected an HTTP error, got \(String(describing: error))")
                    continue
                }
                #expect(http.status == 401 && http.errorCode == "OCE-DELIVERY-AUTHORIZATION")
                #expect(http.detail?.contains("secure") == true)
            }
            #expect(folderEntries(folder).isEmpty)
        }
        #expect(server.requests.filter { $0.header("Authorization") == nil }.count == 2)
    }

    @Test("oceq without the bearer says the channel is secure and where a bearer is given, not that the token is wrong")
    func binaryWithoutBearer() async throws {
        let run = try await OceqBinary.run(["--url", server.origin, "--token", server.token, "-c", "count"])
        #expect(run.code == 1)
        #expect(
            run.stderr
                == "oceq: the channel refused the request (HTTP 401): a secure channel needs its bearer token; "
                + "check authorization in credentials.json, --bearer or OCEQ_BEARER\n")
        let wrongToken = try await OceqBinary.run(
            ["--url", server.origin, "--token", "not-the-token-9", "-c", "count"],
            environment: ["OCEQ_BEARER": Self.bearer])
        #expect(wrongToken.stderr.hasPrefix("oceq: the channel refused the token (HTTP 403); check channelToken"))
        #expect(!wrongToken.stderr.contains(Self.bearer))
    }
}
