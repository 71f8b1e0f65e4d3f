// `preview` on the sample channel: nothing drawn off a terminal or with images never; a drawing
// under its label on a (claimed) terminal; a rendition by name; errors for a content item and an
// unknown rendition; the placeholder line for an image that cannot be fetched.

import AssetModule
import DeliveryKit
import OCEQCore
import OCEQShell
import TerminalMedia
import Testing

@MainActor
@Suite("preview on the sample channel")
struct PreviewTests {
    /// A session writing to memory that claims (or not) to be a terminal, with `images`.
    static func session(terminal: Bool, images: ImageMode = .symbols) -> (Session, MemoryOutput, MemoryOutput) {
        let output = MemoryOutput(isTerminal: terminal, width: 40, height: 14)
        let errors = MemoryOutput()
        var settings = Settings()
        settings.images = images
        let session = Session(
            registry: registry, connection: sampleConnection, output: output, errors: errors, settings: settings,
            baseDirectory: repositoryRoot.path)
        return (session, output, errors)
    }

    @Test("off a terminal nothing is drawn: one line says so")
    func notATerminal() async {
        let (session, output, _) = PreviewTests.session(terminal: false)
        let code = await ScriptRunner.run(
            text: "preview slug:image-cafe-lights-wide-18\n", fileName: "t.oceq", in: session)
        #expect(code == 0)
        #expect(output.text == "cafe-lights-wide-18.jpg: not drawn: output is not a terminal\n")
    }

    @Test("with images never nothing is drawn either")
    func never() async {
        let (session, output, _) = PreviewTests.session(terminal: true, images: .never)
        _ = await ScriptRunner.run(text: "preview slug:image-cafe-lights-wide-18\n", fileName: "t.oceq", in: session)
        #expect(output.text == "cafe-lights-wide-18.jpg: not drawn: images are off (set images)\n")
    }

    @Test("on a terminal in symbols mode the image is drawn under its label, within the screen")
    func symbols() async {
        let (session, output, errors) = PreviewTests.session(terminal: true)
        let code = await ScriptRunner.run(
            text: "preview slug:image-cafe-lights-wide-18 rendition Thumbnail\n", fileName: "t.oceq", in: session)
        #expect(code == 0, "\(errors.text)")
        let lines = output.text.split(separator: "\n")
        #expect(lines.first == "cafe-lights-wide-18.jpg (Thumbnail)")
        #expect(lines.count > 2 && lines.count <= 14)
        #expect(lines.dropFirst().allSatisfy { $0.contains("\u{1B}[") })
    }

    @Test("a content item and an unknown rendition are errors")
    func errors() async {
        let (session, _, errors) = PreviewTests.session(terminal: true)
        let item = await ScriptRunner.run(text: "preview slug:spiced-maple-latte\n", fileName: "t.oceq", in: session)
        #expect(item == 1)
        #expect(
            errors.text.contains(
                "(OCEGettingStartedArticle, CORE8C564D27A008AE7CD725776EB309BE9F) is a content item: there is no image to draw"
            ), "\(errors.text)")
        let rendition = await ScriptRunner.run(
            text: "preview slug:image-cafe-lights-wide-18 rendition Huge\n", fileName: "t.oceq", in: session)
        #expect(rendition == 1)
        #expect(errors.text.contains("has no rendition 'Huge'; it has Thumbnail, Medium, Large, Small"))
    }

    @Test("an image that cannot be fetched is the question mark and the reason on one line")
    func placeholder() async {
        let (session, _, _) = PreviewTests.session(terminal: true)
        let style = ImageStyle(.symbols, colours: .indexed256)
        let text = await session.drawImage(
            DeliveryAPI.downloadNative(id: "CONT00000000000000000000000000000000"), label: "hero", style: style,
            columns: 10, rows: 5)
        #expect(text == "(?) hero: HTTP 404\n")
    }
}
