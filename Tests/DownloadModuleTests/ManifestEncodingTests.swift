import DownloadModule
import OCEQCore
import Testing

/// The manifest's bytes are written straight from its entries; they must stay what the JSON writer
/// made of the manifest's JSON, so older and newer runs read and diff each other's manifests.
@Suite("Download manifest encoding")
struct ManifestEncodingTests {
    static func manifest() -> DownloadManifest {
        var manifest = DownloadManifest()
        manifest.record(.init(assetId: "CONT1", kind: .native, file: "b.jpg", size: 10, etag: nil))
        manifest.record(
            .init(
                assetId: "CONT2", kind: .rendition(name: "Medium", format: "jpg"), file: "a-Medium.jpg", size: 0,
                etag: #"W/"x\y""#))
        manifest.record(
            .init(assetId: "CONT3", kind: .rendition(name: "Large", format: nil), file: "c", size: 1, etag: "e"))
        manifest.record(
            .init(
                assetId: "CONT4", kind: .thumbnail, file: "caf\u{E9} \"q\"-thumbnail.png", size: 123_456_789, etag: ""))
        return manifest
    }

    @Test("the bytes are the JSON writer's, indented by one, with a final line break")
    func sameAsWriter() throws {
        for manifest in [Self.manifest(), DownloadManifest()] {
            let expected = JSONWriter(indent: 1).bytes(manifest.json) + [UInt8(ascii: "\n")]
            #expect(String(decoding: manifest.encoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("many entries: the writer's bytes, files in the order of String's <")
    func fileOrder() throws {
        // Upper before lower case, a space before a digit, a shorter name before a longer one, and
        // non-ASCII names (composed and decomposed) among them; each entry's runs of punctuation
        // between its values, the first entry's and the others'.
        let names = [
            "b.jpg", "B (2).jpg", "Z.jpg", "a", "a.jpg", "~x", "\u{E9}t\u{E9}.jpg", "e\u{301}a.jpg", "e.jpg",
            "\u{E4}", "a\u{E9}", "ab", "0.jpg", " lead.jpg",
        ]
        var manifest = DownloadManifest()
        for (index, name) in names.enumerated() {
            manifest.record(.init(assetId: "CONT\(index)", kind: .native, file: name, size: Int64(index), etag: nil))
        }
        let expected = JSONWriter(indent: 1).bytes(manifest.json) + [UInt8(ascii: "\n")]
        #expect(String(decoding: manifest.encoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        let listed = try JSON.parse(manifest.encoded)["files"]?.arrayValue?.compactMap { $0["file"]?.stringValue }
        #expect(listed == names.sorted())
    }

    @Test("the bytes read back as the same manifest (a name the folder could not hold is dropped)")
    func roundTrip() throws {
        var manifest = Self.manifest()
        let read = try DownloadManifest(json: JSON.parse(manifest.encoded))
        // '"' is no file name character (SafeFileName), so a manifest naming one drops that entry.
        manifest.remove(key: "CONT4|" + DownloadKind.thumbnail.key)
        #expect(read == manifest)
        #expect(read.entries.count == 3)
    }
}
