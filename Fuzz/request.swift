// libFuzzer harness: the server's request path, from a request target and headers to the answer of
// `DeliveryRouter.handle` over a small channel built once in memory (its index is a temporary
// SQLite file). Built by Scripts/fuzz.
//
// Input: the first line is `METHOD TARGET` (no space: GET and the whole line as target), each
// further line a `Name: value` header. A `channelToken: fuzz` header is sent unless the input
// gives one, so most inputs get past the token gate.
import ChannelServer
import DeliveryKit
import OCEQCore

let router: DeliveryRouter = {
    let blog = ExportItem(
        id: "CORE0001", type: "Blog", typeCategory: "ContentType", name: "First post", description: "Hello",
        slug: "first-post", language: "en-US", translatable: true,
        createdDate: .object(["value": .string("2021-03-04T05:06:07.000Z"), "timezone": .string("UTC")]),
        updatedDate: .object(["value": .string("2021-03-05T05:06:07.000Z"), "timezone": .string("UTC")]),
        fields: [
            "title": .string("First post"), "views": .int(42), "tags": .array([.string("a"), .string("b")]),
            "author": .object(["id": .string("CORE0002"), "type": .string("Author")]),
            "image": .object(["id": .string("CONT0003"), "type": .string("DigitalAsset")]),
        ],
        typeFolder: "Blog", mimeType: "contentItem", fileGroup: "contentItem", referenceFields: ["author", "image"])
    let author = ExportItem(
        id: "CORE0002", type: "Author", typeCategory: "ContentType", name: "Ann", slug: "ann",
        language: "fr-FR", fields: ["name": .string("Ann Ödegaard"), "bio": .string("ünïcödé 😀")],
        typeFolder: "Author", mimeType: "contentItem", fileGroup: "contentItem")
    let image = ExportItem(
        id: "CONT0003", type: "Image", typeCategory: "DigitalAssetType", name: "photo.jpg",
        fields: ["metadata": .object(["width": .int(640), "height": .int(480)])], typeFolder: "Image",
        mimeType: "image/jpeg", fileGroup: "Images", fileExtension: "jpg", nativeSize: 1234,
        imageSize: ImageSize(width: 640, height: 480))
    let items = [blog, author, image]
    let content = ChannelContent(items: items, fingerprint: "fuzz")
    do {
        let index = try ChannelIndex(items: items, fingerprint: "fuzz", cacheDirectory: nil)
        return DeliveryRouter(
            content: content, index: index,
            configuration: ServerConfiguration(channelToken: "fuzz", responseCacheBytes: 0))
    } catch {
        fatalError("cannot build the fuzz channel: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let first = lines.first.map(String.init) ?? ""
    var method = "GET"
    var target = first
    if let space = first.firstIndex(of: " ") {
        method = String(first[..<space])
        target = String(first[first.index(after: space)...])
    }
    var headers = ["channelToken": "fuzz"]
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[String(line[..<colon])] = String(line[line.index(after: colon)...].drop { $0 == " " })
    }
    let request = HTTPRequest(method: method, target: target, headers: headers)
    let response = router.handle(request)
    precondition((100...599).contains(response.status), "status out of range")
    return 0
}
