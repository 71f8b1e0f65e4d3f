import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

@Suite("Export loading: bad input")
struct ExportBadInputTests {
    /// The one-line message of the error `load` throws for `paths`.
    private func failure(_ paths: [String], strict: Bool = false, cache: TemporaryFolder) -> String? {
        do {
            _ = try loadExport(paths, strict: strict, cache: cache)
            return nil
        } catch let error as ExportError {
            return error.description
        } catch {
            return "unexpected error type: \(error)"
        }
    }

    @Test("a missing path is an error naming it")
    func missing() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let message = try #require(failure(["/no/such/export"], cache: cache))
        #expect(message == "/no/such/export: no such file or directory")
    }

    @Test("no paths at all is an error")
    func noPaths() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        #expect(failure([], cache: cache) == "no export path given")
    }

    @Test("an unreadable folder is an error naming it", .enabled(if: getuid() != 0, "root reads everything"))
    func unreadable() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            chmod(folder.path, 0o755)
            folder.remove()
            cache.remove()
        }
        chmod(folder.path, 0)
        let message = try #require(failure([folder.path], cache: cache))
        #expect(message.hasPrefix(folder.path + ": cannot read: "))
    }

    @Test("a folder that holds no export is an error naming it")
    func notAnExport() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        try folder.write("a/b/c/d/ContentItems/x.json", "{}")  // too deep to count
        try folder.write("notes.txt", "hello")
        let message = try #require(failure([folder.path], cache: cache))
        #expect(message.hasPrefix(folder.path + ": not an OCM content export (no folder with ContentItems/"))
        #expect(!message.contains("\n"))
    }

    @Test("a plain file that is not a zip is an error naming it")
    func notAZip() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let file = try folder.write("export.zip", "this is text")
        #expect(failure([file], cache: cache) == file + ": not an OCM content export (neither a folder nor a zip file)")
    }

    @Test("a truncated zip is an error naming it and leaves nothing in the cache")
    func truncatedZip() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ExportFixtures.blog2021Zip))
        for cut in [bytes.count / 2, bytes.count - 30, 200] {
            let file = try folder.write("truncated-\(cut).zip", bytes.prefix(cut))
            let message = try #require(failure([file], cache: cache), "cut at \(cut)")
            #expect(message.hasPrefix(file + ": "), "cut at \(cut)")
            #expect(!message.contains("\n"))
            #expect(cache.files().isEmpty, "cut at \(cut): \(cache.files())")
        }
    }

    @Test("a zip whose data is damaged is an error naming it and leaves nothing in the cache")
    func damagedZip() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: ExportFixtures.blog2021Zip))
        for offset in stride(from: bytes.count / 3, to: bytes.count / 3 + 4000, by: 1) { bytes[offset] ^= 0x5A }
        let file = try folder.write("damaged.zip", bytes)
        let message = try #require(failure([file], cache: cache))
        #expect(message.hasPrefix(file + ": corrupt or truncated zip: entry '"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(cache.files().isEmpty, "\(cache.files())")
    }

    @Test("zip entries with .., absolute paths or links are skipped and reported; nothing is written outside")
    func hostileZip() throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let outside = URL(fileURLWithPath: cache.path).deletingLastPathComponent().path
        let content = try loadExport([ExportFixtures.hostileZip], cache: cache)
        #expect(content.items.map(\.name) == ["Safe note"])
        let messages = content.issues.map(\.description)
        #expect(messages.contains { $0.contains("'../escaped-dotdot.txt' points outside the extraction folder") })
        #expect(messages.contains { $0.contains("'contentexport/../../escaped-nested.txt' points outside") })
        #expect(messages.contains { $0.contains("'/tmp/oceq-escaped-absolute.txt' is an absolute path") })
        #expect(messages.contains { $0.contains("link-to-etc' is not a regular file or folder") })
        #expect(content.issues.allSatisfy { $0.file == ExportFixtures.hostileZip })
        #expect(!FileManager.default.fileExists(atPath: outside + "/escaped-dotdot.txt"))
        #expect(!FileManager.default.fileExists(atPath: outside + "/escaped-nested.txt"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/oceq-escaped-absolute.txt"))
        #expect(cache.files().allSatisfy { !$0.contains("escaped") && !$0.contains("link-to-etc") })

        // The skipped entries are still reported when the extraction is reused.
        let again = try loadExport([ExportFixtures.hostileZip], cache: cache)
        #expect(again.issues.map(\.description) == messages)
        // And strict loading refuses the zip.
        let strict = try #require(failure([ExportFixtures.hostileZip], strict: true, cache: cache))
        #expect(strict.hasPrefix(ExportFixtures.hostileZip + ": entry '"))
        #expect(strict.hasSuffix("(and 3 more)"))
    }

    @Test("an item file that is not JSON, or has no id, is skipped with an issue naming the file")
    func badItems() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let root = try writeExport(
            in: folder,
            items: [
                "Note/CORE01.json": #"{"id":"CORE01","type":"Note","name":"ok","fields":{}}"#,
                "Note/CORE02.json": #"{"id":"CORE02","type":"Note","name":"#,
                "Note/CORE03.json": #"{"type":"Note","name":"no id","fields":{}}"#,
                "Note/CORE04.json": #"["not", "an", "object"]"#,
                "Note/CORE05.json": #"{"id":"../../../etc","type":"Note","name":"escape","fields":{}}"#,
            ])
        let content = try loadExport([root], cache: cache)
        #expect(content.items.map(\.id) == ["CORE01"])
        let byFile = Dictionary(grouping: content.issues, by: { ($0.file as NSString).lastPathComponent })
        #expect(byFile["CORE02.json"]?.first?.message.hasPrefix("not valid JSON (invalid JSON at byte") == true)
        #expect(byFile["CORE03.json"]?.first?.message == "item has no id; skipped")
        #expect(byFile["CORE04.json"]?.first?.message == "not a JSON object; item skipped")
        #expect(byFile["CORE05.json"]?.first?.message == "item id '../../../etc' is not a valid id; skipped")
        #expect(content.issues.allSatisfy { $0.file.hasPrefix(root + "/ContentItems/Note/") })

        let strict = try #require(failure([root], strict: true, cache: cache))
        #expect(strict.hasPrefix(root + "/ContentItems/Note/CORE02.json: not valid JSON"))
        #expect(strict.hasSuffix("(and 3 more)"))
    }

    @Test("a dangling reference is kept as a stub and reported")
    func danglingReference() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let root = try writeExport(
            in: folder,
            items: [
                "Note/CORE01.json":
                    #"{"id":"CORE01","type":"Note","name":"n","fields":{"see":{"id":"CONT99","type":"Image"},"#
                    + #""also":[{"id":"CORE77","type":"Note"}]}}"#
            ])
        let content = try loadExport([root], cache: cache)
        let item = try #require(content.items.first)
        #expect(item.fields["see"]?["typeCategory"] == "DigitalAssetType")
        #expect(item.fields["also"]?[0]?["typeCategory"] == "ContentType")
        #expect(
            content.issues.map(\.message).sorted() == [
                "field 'also' refers to CORE77 (Note), which is not in the export; kept as a stub",
                "field 'see' refers to CONT99 (Image), which is not in the export; kept as a stub",
            ])
        #expect(content.issues.allSatisfy { $0.file == root + "/ContentItems/Note/CORE01.json" })

        let shaper = DeliveryShaper(content: content)
        let body = try shaper.full(item, context: ExportFixtures.context, expand: .all)
        #expect(body.at("fields.see.id") == "CONT99")
        #expect(body.at("fields.see.links.0.rel") == "self")
    }

    @Test("an asset whose native file is missing is kept and reported")
    func missingNative() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let root = try writeExport(
            in: folder,
            items: [
                "Image/CONT01.json":
                    #"{"id":"CONT01","type":"Image","typeCategory":"DigitalAssetType","name":"a.jpg","fields":{"native":{"links":[]},"mimeType":"image/jpeg"}}"#
            ])
        let content = try loadExport([root], cache: cache)
        #expect(content.items.count == 1)
        #expect(content.items[0].nativeFile == nil)
        #expect(
            content.issues.map(\.message) == [
                "native file missing: no folder files/CONT01/; the asset is served without it"
            ])
    }

    @Test("a native file with another name is found as the only file of its folder")
    func nativeFallback() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        let root = try writeExport(
            in: folder,
            items: [
                "Image/CONT01.json":
                    #"{"id":"CONT01","type":"Image","typeCategory":"DigitalAssetType","name":"renamed.png","fields":{"metadata":{}}}"#
            ])
        let png = try Data(contentsOf: URL(fileURLWithPath: ExportFixtures.images + "/20x10.png"))
        try folder.write("contentexport/ContentItems/Image/files/CONT01/original.png", png)
        let content = try loadExport([root], cache: cache)
        #expect(content.issues.isEmpty, "\(content.issues)")
        #expect(content.items[0].nativeFile?.hasSuffix("/files/CONT01/original.png") == true)
        #expect(content.items[0].imageSize == ImageSize(width: 20, height: 10))
        #expect(content.items[0].nativeSize == png.count)
    }

    @Test("metadata.json listing an item with no file is reported")
    func metadataCrossCheck() throws {
        let cache = try TemporaryFolder()
        let folder = try TemporaryFolder()
        defer {
            folder.remove()
            cache.remove()
        }
        try folder.write(
            "contentexport/metadata.json", #"{"groups":2,"group0":["Note"],"group1":["Note:CORE01","Note:CORE09"]}"#)
        try folder.write("contentexport/ContentItems/Note/CORE01.json", #"{"id":"CORE01","type":"Note","name":"n"}"#)
        let content = try loadExport([folder.path], cache: cache)
        #expect(
            content.issues.map(\.description) == [
                folder.path
                    + "/contentexport/metadata.json: lists Note:CORE09 but ContentItems/Note/CORE09.json is missing"
            ])
    }

    @Test("the cache folder that cannot be created is an error naming it")
    func badCache() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blocker = try folder.write("file", "x")
        do {
            _ = try ExportLoader(options: ExportLoadOptions(cacheDirectory: blocker + "/cache"))
                .load(paths: [ExportFixtures.blog2021Zip])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix(blocker + "/cache: cannot use the extraction cache: "))
        }
    }
}
