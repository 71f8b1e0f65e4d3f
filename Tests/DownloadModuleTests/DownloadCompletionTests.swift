import Foundation
import OCEQShell
import Testing

/// Tab completion after `download TARGET`: the words not given yet, rendition names and formats, folders.
@MainActor
@Suite("Tab after download")
struct DownloadCompletionTests {
    private func texts(_ completer: Completer, _ line: String) -> [String] {
        completer.complete(line: line, cursor: line.count).candidates.map(\.text)
    }

    @Test("download: the words after the target, each once; rendition names and formats; to takes folders")
    func download() async throws {
        let server = try DownloadServer()
        let (session, _, errors) = try server.session()
        let code = await ScriptRunner.run(
            text: "list type=Image order name limit 2", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0, "\(errors.text)")
        let completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10)))
        #expect(texts(completer, "download @1 ") == ["native", "rendition", "thumbnail", "to"])
        #expect(texts(completer, "download @1 --") == ["--force", "--concurrency"])
        #expect(texts(completer, "download @1 native ") == ["to"])
        #expect(texts(completer, "download @1 to out ") == ["native", "rendition", "thumbnail"])
        let renditions = texts(completer, "download @1 rendition ")
        #expect(renditions.contains("Thumbnail") && renditions.contains("Medium"), "\(renditions)")
        #expect(texts(completer, "download @1 rendition med") == ["Medium"])
        #expect(texts(completer, "download @1 rendition Medium ") == ["format", "to"])
        let formats = texts(completer, "download @1 rendition Medium format ")
        #expect(formats.contains("jpg"), "\(formats)")
        #expect(texts(completer, "download @1 --concurrency ").isEmpty, "a number goes there")
        // A selection: the renditions of the first item of its type.
        let selected = texts(completer, "download (list type=Image limit 3) rendition ")
        #expect(selected.contains("Medium"), "\(selected)")
        #expect(texts(completer, "download (list type=Image limit 3) ").contains("thumbnail"))
        // `to` offers folders only.
        let folders = texts(completer, "download @1 to ")
        #expect(folders.contains("Sources/") && folders.contains("Samples/"), "\(folders)")
        #expect(!folders.contains("Package.swift") && folders.allSatisfy { $0.hasSuffix("/") }, "\(folders)")
        #expect(texts(completer, "download @1 rendition Medium to Sampl") == ["Samples/"])
        // An item that is not known (yet): the renditions OCM makes of every image.
        #expect(texts(completer, "download CONT00000000000000000000000000000000 rendition ").count == 4)
    }

    @Test("a content item has no renditions to offer")
    func contentItem() async throws {
        let server = try DownloadServer()
        let (session, _, errors) = try server.session()
        let code = await ScriptRunner.run(
            text: "list type=OCEGettingStartedArticle limit 1", fileName: nil, in: session, keepGoing: false)
        #expect(code == 0, "\(errors.text)")
        let completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(10)))
        #expect(texts(completer, "download @1 rendition ").isEmpty)
    }
}
