// Bidirectional controls in the names a server sends (issue 20, point 10): `mirror` names files
// through core's `SafeFileName`, so no file it writes carries U+202E or any other bidi control.

import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQShell
import Testing

@testable import MirrorModule

@Suite("mirror: bidi controls never reach a file name")
struct BidiNameTests {
    /// Every bidirectional control: embeddings, overrides, isolates and marks.
    static let controls: [Unicode.Scalar] = [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{061C}",
    ]

    @Test("each bidi control makes a name unsafe, so the file is named after the id")
    func eachControl() {
        for control in Self.controls {
            let name = "photo" + String(Character(control)) + "gpj.exe"
            #expect(BidiControls.contains(control))
            #expect(!SafeFileName.isSafe(name), "U+\(String(control.value, radix: 16))")
            #expect(SafeName.fileName(name, id: "CONT1", fileExtension: "jpg") == "CONT1.jpg")
            #expect(!SafeFileName.sanitize(name).unicodeScalars.contains(where: BidiControls.contains))
        }
        #expect(BidiControls.stripped("a\u{202E}b\u{2067}c\u{061C}d") == "abcd")
        #expect(!BidiControls.contains("\u{0627}"), "Arabic letters stay")
    }

    @Test("a mirror of an asset named with U+202E writes no file name holding a bidi control")
    @MainActor
    func mirrorWritesNoBidi() async throws {
        let folder = temporaryFolder("bidi")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let target = folder + "/mirror"
        let page = """
            {"items":[
              {"id":"CONT01","type":"Image","typeCategory":"DigitalAssetType","name":"invoice\\u202Egpj.exe",
               "fileExtension":"jpg","mimeType":"image/jpeg","fileGroup":"Images","fields":{"size":5}},
              {"id":"CONT02","type":"Image","typeCategory":"DigitalAssetType","name":"plain\\u2066x\\u2069.jpg",
               "fileExtension":"jpg","mimeType":"image/jpeg","fileGroup":"Images","fields":{"size":5}}
            ],"hasMore":false,"count":2,"offset":0,"limit":100,"totalResults":2}
            """
        let stub = StubTransport { request in
            if request.url.contains("/assets/") {
                return .response(status: 200, headers: [HTTPHeader("Content-Length", "5")], body: Array("hello".utf8))
            }
            return .json(page)
        }
        let client = DeliveryClient(
            configuration: try DeliveryConfiguration(url: "https://evil.example.com", channelToken: "bidi-token-1234"),
            transport: stub)
        let run = await runScript("mirror \"\(target)\"", on: Connection(client: client, channelName: "evil"))
        let files = filesUnder(target)
        #expect(files.contains("contentexport/ContentItems/Image/files/CONT01/CONT01.jpg"), "\(run) \(files)")
        #expect(files.contains("contentexport/ContentItems/Image/files/CONT02/CONT02.jpg"), "\(files)")
        #expect(!files.contains { $0.unicodeScalars.contains(where: BidiControls.contains) }, "\(files)")
    }
}
