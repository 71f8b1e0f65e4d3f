// Rich text and images in the blog commands: `read` renders the body (or shows it raw with
// `set html raw`) and, on a terminal, draws the hero image and avatar; `--images` draws
// thumbnails beside rows on a terminal and changes nothing elsewhere.

import OCEQShell
import TerminalMedia
import Testing

@MainActor
@Suite("Blog commands with rich text and images")
struct MediaTests {
    @Test("read renders the body; set html raw shows the HTML as sent")
    func htmlModes() async {
        let shell = Shell()
        let text = await shell.run("read \"The Cortado Guide\"")
        #expect(text.code == 0, "\(text.errors)")
        #expect(!text.output.contains("<p>"))
        _ = await shell.run("set html raw")
        let raw = await shell.run("read \"The Cortado Guide\"")
        #expect(raw.output.contains("<p>"))
        #expect(!raw.output.contains("\u{1B}"))
    }

    @Test("--images off a terminal prints the rows as without it")
    func imagesOffTerminal() async {
        let shell = Shell()
        let plain = await shell.run("topics")
        let flagged = await shell.run("topics --images")
        #expect(flagged.code == 0)
        #expect(flagged.output == plain.output)
        let articles = await shell.run("articles recipes --images")
        #expect(articles.code == 0, "\(articles.errors)")
        #expect(!articles.output.contains("\u{1B}"))
    }

    @Test("on a terminal, thumbnails are drawn beside the rows and read draws the hero and avatar")
    func imagesOnTerminal() async {
        let shell = Shell()
        shell.output.isTerminal = true
        shell.session.settings.images = .symbols
        shell.session.settings.pager = nil
        let topics = await shell.run("topics --images")
        #expect(topics.code == 0, "\(topics.errors)")
        let lines = topics.output.split(separator: "\n")
        let row = lines.first { $0.contains("Brewing at Home (10 articles)") }
        #expect(row.map { $0.hasPrefix("\u{1B}[") && $0.hasSuffix("1  Brewing at Home (10 articles)") } == true)
        let read = await shell.run("read \"The Cortado Guide\"")
        #expect(read.code == 0, "\(read.errors)")
        #expect(!read.output.contains("[image: "))
        let byline = read.output.split(separator: "\n").first { $0.contains("by Hana Kim") }
        #expect(byline.map { $0.hasPrefix("\u{1B}[") } == true, "the avatar is drawn beside the byline")
    }
}
