// Images: a sample photo decoded by libvips and drawn by chafa in symbols mode at a fixed size and
// colour depth (the golden file `preview-symbols.txt`), terminal detection from the environment,
// and the one-line placeholder for what cannot be decoded.

import Foundation
import Testing

@testable import TerminalMedia

@Suite("Images for the terminal")
struct TerminalImageTests {
    static let photo = sampleExport.appendingPathComponent(
        "ContentItems/Image/files/CONT18C5C42379CE8D30432EBBA70889E834/window-seat-22.jpg")
    static let png = sampleExport.appendingPathComponent(
        "ContentItems/Image/files/CONTA5F336E89BA7C669CAFCC1589E0CD12C/avatar-hana-kim.png")

    @Test("a photo in symbols mode at 40 × 12 cells, 256 colours")
    func symbols() throws {
        let image = try TerminalImage(file: TerminalImageTests.photo.path, columns: 40, rows: 12)
        #expect(image.cells.columns <= 40 && image.cells.rows <= 12)
        let text = image.draw(ImageStyle(.symbols, colours: .indexed256))
        #expect(text.split(separator: "\n").count == image.cells.rows)
        expectGolden(text, named: "preview-symbols.txt")
        let again = try TerminalImage(file: TerminalImageTests.photo.path, columns: 40, rows: 12)
        #expect(again.draw(ImageStyle(.symbols, colours: .indexed256)) == text)
    }

    @Test("a PNG decodes too, and true colour uses 24-bit sequences")
    func png() throws {
        let image = try TerminalImage(file: TerminalImageTests.png.path, columns: 16, rows: 8)
        #expect(image.pixels.count == image.width * image.height * 4)
        #expect(image.draw(ImageStyle(.symbols, colours: .trueColour)).contains("\u{1B}[38;2;"))
    }

    @Test("sixel, kitty and iTerm2 drawings start with their own introducers")
    func protocols() throws {
        let image = try TerminalImage(file: TerminalImageTests.png.path, columns: 8, rows: 4)
        #expect(image.draw(ImageStyle(.sixel, colours: .trueColour)).hasPrefix("\u{1B}P"))
        #expect(image.draw(ImageStyle(.kitty, colours: .trueColour)).hasPrefix("\u{1B}_G"))
        #expect(image.draw(ImageStyle(.iterm, colours: .trueColour)).hasPrefix("\u{1B}]1337;"))
    }

    @Test("bytes that are not an image give an error of one line")
    func undecodable() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oceq-not-an-image-\(getpid()).jpg")
        try Data("<html>not an image\n\u{1B}[31m</html>".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(throws: ImageError.self) { try TerminalImage(file: path.path, columns: 10, rows: 5) }
        do {
            _ = try TerminalImage(file: path.path, columns: 10, rows: 5)
        } catch {
            #expect(error.description.hasPrefix("cannot decode: "))
            let line = TerminalImage.placeholder("hero", reason: error.description)
            #expect(line.hasPrefix("(?) hero: cannot decode: "))
            #expect(line.filter { $0 == "\n" }.count == 1)
            #expect(!line.contains("\u{1B}"))
        }
    }

    @Test(
        "the protocol is detected from the environment as chafa does",
        arguments: [
            (["TERM": "xterm-kitty"], ImageStyle.Drawing.kitty),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .iterm),
            (["TERM": "mlterm"], .sixel),
            (["TERM": "xterm-256color"], .symbols),
        ])
    func detection(environment: [String: String], expected: ImageStyle.Drawing) {
        #expect(ImageStyle.detect(environment).drawing == expected)
    }

    @Test("nothing is drawn off a terminal or with images never; a forced mode keeps its protocol")
    func resolution() {
        let environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
        #expect(ImageStyle.resolve(.symbols, isTerminal: false, environment: environment) == nil)
        #expect(ImageStyle.resolve(.never, isTerminal: true, environment: environment) == nil)
        #expect(
            ImageStyle.resolve(.auto, isTerminal: true, environment: environment)
                == ImageStyle(.symbols, colours: .trueColour))
        #expect(ImageStyle.resolve(.sixel, isTerminal: true, environment: environment)?.drawing == .sixel)
        #expect(
            ImageStyle.resolve(.auto, isTerminal: true, environment: ["TERM": "xterm-kitty"])?.colours == .trueColour)
    }

    @Test("hyperlink support is read from the environment")
    func hyperlinks() {
        #expect(TerminalFeatures.supportsHyperlinks(["TERM_PROGRAM": "iTerm.app"]))
        #expect(TerminalFeatures.supportsHyperlinks(["VTE_VERSION": "6800"]))
        #expect(!TerminalFeatures.supportsHyperlinks(["TERM": "xterm-256color"]))
        #expect(!TerminalFeatures.supportsHyperlinks(["TERM": "linux", "OCEQ_HYPERLINKS": "0"]))
        #expect(TerminalFeatures.supportsHyperlinks(["OCEQ_HYPERLINKS": "1"]))
    }
}
