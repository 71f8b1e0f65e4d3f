// A folder export is read without following links out of it: a native file, an item file or a
// type folder that is a link to something outside the export is neither indexed nor served, even
// when the link is planted after the server loaded the export. Links that stay inside are followed.

import ChannelServer
import Foundation
import OCEQCore
import Testing

@Suite("serve: links out of a folder export")
struct SymlinkContainmentTests {
    static let secret = "SECRET-BYTES-OUTSIDE-THE-EXPORT"
    static let content = "assets/contenttemplate/Content Template of KnowledgeTemplate"
    static let banner = "CONT4B1D44C0B8EA417783658FE88D6C0AED"
    static let face = "CONT6C7D8E9F0A1B42C3D4E5F6A7B8C9D0E1"

    /// A copy of the 2023 fixture export in a new temporary folder.
    static func copiedExport(_ label: String) throws -> TemporaryFolder {
        let export = try TemporaryFolder(label)
        try FileManager.default.removeItem(atPath: export.path)
        try FileManager.default.copyItem(atPath: ExportFixtures.genD, toPath: export.path)
        return export
    }

    @Test("a native file, an item file and a type folder linked from outside are not read or served")
    func linksOutAreNotFollowed() async throws {
        let export = try Self.copiedExport("oceq-serve-links-export")
        let outside = try TemporaryFolder("oceq-serve-links-outside")
        defer {
            export.remove()
            outside.remove()
        }
        let items = export.path + "/" + Self.content + "/ContentItems"
        let secretFile = try outside.write("passwd.jpg", Self.secret)
        // The banner's native file is a link to a file outside the export.
        let bannerFile = items + "/Image/files/\(Self.banner)/banner.jpg"
        try FileManager.default.removeItem(atPath: bannerFile)
        try FileManager.default.createSymbolicLink(atPath: bannerFile, withDestinationPath: secretFile)
        // A type folder and an item file linked in from outside.
        let foreignItem = #"{"id":"CONTFOREIGN1","type":"Image","name":"x.jpg","fields":{}}"#
        try outside.write("types/CONTFOREIGN1.json", foreignItem)
        try FileManager.default.createSymbolicLink(
            atPath: items + "/Foreign", withDestinationPath: outside.path + "/types")
        try outside.write("CONTFOREIGN2.json", foreignItem.replacingOccurrences(of: "FOREIGN1", with: "FOREIGN2"))
        try FileManager.default.createSymbolicLink(
            atPath: items + "/Image/CONTFOREIGN2.json", withDestinationPath: outside.path + "/CONTFOREIGN2.json")

        let channel = try TestChannel(paths: [export.path])
        let native = try await channel.get("/assets/\(Self.banner)/native")
        #expect(!native.text.contains(Self.secret))
        #expect(native.status != 200)
        #expect(try await channel.get("/items/CONTFOREIGN1").status == 404)
        #expect(try await channel.get("/items/CONTFOREIGN2").status == 404)

        // A native file swapped for a link after loading is not served either.
        let faceFile = items + "/Image/files/\(Self.face)/face.png"
        #expect(try await channel.get("/assets/\(Self.face)/native").status == 200)
        try FileManager.default.removeItem(atPath: faceFile)
        try FileManager.default.createSymbolicLink(atPath: faceFile, withDestinationPath: secretFile)
        let swapped = try await channel.get("/assets/\(Self.face)/native")
        #expect(!swapped.text.contains(Self.secret))
        #expect(swapped.status == 404)
    }

    @Test("a rendition already made is answered as when it was made, and refused once its native is a link out")
    func madeRenditionOfSwappedNative() async throws {
        let export = try Self.copiedExport("oceq-serve-links-made")
        let outside = try TemporaryFolder("oceq-serve-links-made-outside")
        defer {
            export.remove()
            outside.remove()
        }
        let channel = try TestChannel(paths: [export.path])
        let path = "/assets/\(Self.face)/Medium?format=jpg"
        let made = try await channel.get(path)
        #expect(made.status == 200)
        // Known now: answered from the rendition cache without reading the item, with the same answer.
        for again in [path, "/assets/\(Self.face)/Medium/face.jpg?format=jpg"] {
            let known = try await channel.get(again)
            #expect(known.status == 200)
            #expect(known.body == made.body)
            for name in ["Content-Type", "ETag", "Content-Disposition", "Accept-Ranges", "Content-Length"] {
                #expect(known.header(name) == made.header(name), "\(name)")
            }
        }
        let attached = try await channel.get(path + "&download=true")
        #expect(attached.header("Content-Disposition")?.hasPrefix("attachment; filename=\"face.jpg\"") == true)
        #expect(made.header("Content-Disposition")?.hasPrefix("inline; filename=\"face.jpg\"") == true)
        let tag = try #require(made.header("ETag"))
        #expect(try await channel.get(path, headers: ["If-None-Match": tag]).status == 304)
        let part = try await channel.get(path, headers: ["Range": "bytes=1-10"])
        #expect(part.status == 206 && part.body == Array(made.body[1...10]))

        // The native file swapped for a link out: the rendition made from it is refused too.
        let secretFile = try outside.write("passwd.png", Self.secret)
        let faceFile = export.path + "/" + Self.content + "/ContentItems/Image/files/\(Self.face)/face.png"
        try FileManager.default.removeItem(atPath: faceFile)
        try FileManager.default.createSymbolicLink(atPath: faceFile, withDestinationPath: secretFile)
        let swapped = try await channel.get(path)
        #expect(swapped.status == 404)
        #expect(swapped.text.contains("not inside the export"))
        #expect(try await channel.get("/assets/\(Self.face)/Small?format=jpg").status == 404)
    }

    @Test("a link inside the export to a file inside it is followed")
    func linksInsideAreFollowed() async throws {
        let export = try Self.copiedExport("oceq-serve-links-inside")
        defer { export.remove() }
        let folder = export.path + "/" + Self.content + "/ContentItems/Image/files/\(Self.banner)"
        let original = try Data(contentsOf: URL(fileURLWithPath: folder + "/banner.jpg"))
        try FileManager.default.moveItem(atPath: folder + "/banner.jpg", toPath: folder + "/../kept.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder + "/banner.jpg", withDestinationPath: "../kept.jpg")

        let channel = try TestChannel(paths: [export.path])
        let native = try await channel.get("/assets/\(Self.banner)/native")
        #expect(native.status == 200)
        #expect(Data(native.body) == original)
    }

    @Test("a cache folder whose sub-folder is a link, or that others can write, is not used")
    func cacheFolderLinks() throws {
        let cache = try TemporaryFolder("oceq-serve-links-cache")
        let outside = try TemporaryFolder("oceq-serve-links-cache-victim")
        defer {
            cache.remove()
            outside.remove()
        }
        try FileManager.default.createSymbolicLink(atPath: cache.path + "/exports", withDestinationPath: outside.path)
        var options = ServeOptions()
        options.paths = [TestChannel.fixtureZip]
        options.token = Secret(TestChannel.token)
        options.cacheDirectory = cache.path
        #expect(throws: ExportError.self) { try ChannelService.load(options) }
        #expect(outside.files().isEmpty, "nothing was extracted through the link")

        try FileManager.default.removeItem(atPath: cache.path + "/exports")
        chmod(cache.path, 0o777)
        #expect(throws: ExportError.self) { try ChannelService.load(options) }
        chmod(cache.path, 0o700)
        let service = try ChannelService.load(options)
        #expect(!service.content.items.isEmpty, "the user's own folder is used")
    }
}
