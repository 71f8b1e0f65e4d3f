// How `read`, `home` and `author` are laid out (issue 18, point 8): the title and byline set apart,
// prose at most 100 columns wide, the hero at most a third of the screen high, a quote barred on
// every line, no debug-looking reference lines, and the logo and avatar drawn on a terminal
// through the same image path as `read`'s hero. Off a terminal and in the data formats the
// commands keep their plain or structured output.

import DeliveryKit
import OCEQCore
import OCEQShell
import TerminalMedia
import Testing

@testable import BlogModule

@MainActor
@Suite("read, home and author: layout and images", .serialized)
struct LayoutTests {
    /// The article of the layout tests: a hero, a caption, a list, and a quote of two paragraphs.
    static let article = "read \"Réussir son cappuccino à la maison\""

    /// A shell that is a terminal `width` × `height` with colour on, no pager, images drawn as
    /// symbols (or not at all).
    static func terminal(width: Int, height: Int, images: ImageMode = .symbols) -> Shell {
        let shell = Shell(width: width, height: height, terminal: true)
        shell.session.settings.pager = nil
        shell.session.settings.color = true
        shell.session.settings.images = images
        return shell
    }

    /// `text` without its escape sequences: CSI (chafa's colours, the screen's bold and dim) and
    /// OSC (hyperlinks, on terminals whose environment says they show them).
    static func plain(_ text: String) -> String {
        enum State { case text, escape, csi, osc, oscEscape }
        var out = String.UnicodeScalarView()
        var state = State.text
        for scalar in text.unicodeScalars {
            switch state {
            case .text:
                if scalar == "\u{1B}" { state = .escape } else { out.append(scalar) }
            case .escape: state = scalar == "[" ? .csi : scalar == "]" ? .osc : .text
            case .csi: if (0x40...0x7E).contains(scalar.value) { state = .text }
            case .osc: if scalar == "\u{7}" { state = .text } else if scalar == "\u{1B}" { state = .oscEscape }
            case .oscEscape: state = .text
            }
        }
        return String(out)
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("read at 160, 100 and 80 columns (off a terminal): golden", arguments: [160, 100, 80])
    func readGolden(width: Int) async {
        let shell = Shell(width: width)
        let result = await shell.run(LayoutTests.article)
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(result.output, named: "read-\(width).txt")
    }

    @Test(
        "read wraps its prose at min(width, 100) columns, on a terminal and off it",
        arguments: [(160, false), (160, true), (100, false), (80, false), (80, true), (60, true)])
    func wrapWidth(width: Int, terminal: Bool) async {
        let shell = terminal ? LayoutTests.terminal(width: width, height: 50, images: .never) : Shell(width: width)
        let result = await shell.run(LayoutTests.article)
        #expect(result.code == 0, "\(result.errors)")
        let lines = LayoutTests.lines(LayoutTests.plain(result.output))
        let widths = lines.map { TerminalText.width(of: $0) }
        let measure = min(width, 100)
        let wide = lines.filter { TerminalText.width(of: $0) > measure }
        #expect(wide.isEmpty, "wider than \(measure): \(wide)")
        // The measure is used, not a narrower one: some paragraph line comes close to it.
        #expect(widths.contains { $0 > measure - 12 })
    }

    @Test(
        "the hero image is at most a third of the screen high and at most 100 columns wide",
        arguments: [(160, 24), (160, 45), (160, 90), (80, 24), (80, 90)])
    func heroBounds(width: Int, height: Int) async throws {
        let shell = LayoutTests.terminal(width: width, height: height)
        let result = await shell.run(LayoutTests.article)
        #expect(result.code == 0, "\(result.errors)")
        let lines = LayoutTests.lines(result.output)
        // The hero: the lines after the blank line that ends the byline block, up to the caption.
        let caption = try #require(lines.firstIndex { $0.contains("Photo : l'équipe du Café Supremo.") })
        let start = try #require(lines[..<caption].lastIndex(of: "")) + 1
        let hero = lines[start..<caption]
        #expect(!hero.isEmpty)
        #expect(hero.allSatisfy { $0.contains("\u{1B}[") }, "the hero is drawn")
        #expect(hero.count <= height / 3, "\(hero.count) rows on a screen of \(height)")
        let columns = hero.map { TerminalText.width(of: LayoutTests.plain($0)) }.max() ?? 0
        #expect(columns <= min(width, 100))
        // Where the height allows it, the picture takes the prose's whole width.
        if height >= 90 { #expect(columns == min(width, 100)) }
    }

    @Test("a quote of two paragraphs keeps its bar on every line, the blank one between them too")
    func quoteBar() async throws {
        for shell in [Shell(width: 100), LayoutTests.terminal(width: 100, height: 40, images: .never)] {
            let result = await shell.run(LayoutTests.article)
            let lines = LayoutTests.lines(LayoutTests.plain(result.output))
            let first = try #require(lines.firstIndex { $0.contains("“Un bon café, c'est d'abord") })
            #expect(lines[first].hasPrefix("│ "))
            #expect(lines[first + 1] == "│")
            #expect(lines[first + 2] == "│ — Camille, barista au Café Supremo")
            #expect(lines[first - 1] == "" && lines[first + 3] == "", "the quote is set apart from the text around it")
        }
    }

    @Test("the title and byline are set apart: bold title, dim byline with the date, a blank line after")
    func titleAndByline() async {
        let plain = await Shell(width: 100).run(LayoutTests.article)
        #expect(
            plain.output.hasPrefix(
                "Réussir son cappuccino à la maison\nby Priya Natarajan · Nov 29, 2025\n\n"
                    + "[image: morning-cup-wide-11.jpg (CONTCA417F8852498C02847F779AF3A14E11)]\n"))
        let styled = await LayoutTests.terminal(width: 100, height: 40, images: .never).run(LayoutTests.article)
        #expect(
            styled.output.hasPrefix(
                "\u{1B}[1mRéussir son cappuccino à la maison\u{1B}[0m\n"
                    + "\u{1B}[2mby Priya Natarajan · Nov 29, 2025\u{1B}[0m\n\n"))
        // The caption under the hero is dim and italic.
        #expect(styled.output.contains("\u{1B}[2;3mPhoto : l'équipe du Café Supremo.\u{1B}[0m\n\n"))
    }

    @Test("no author: or avatar: lines, on a terminal or off it, in any article")
    func noReferenceLines() async {
        for shell in [Shell(width: 80), LayoutTests.terminal(width: 120, height: 40)] {
            for title in ["Réussir son cappuccino à la maison", "The Cortado Guide", "Brew Ratios Made Simple"] {
                let result = await shell.run("read \"\(title)\"")
                #expect(result.code == 0, "\(result.errors)")
                let lines = LayoutTests.lines(LayoutTests.plain(result.output))
                #expect(!lines.contains { $0.hasPrefix("author:") || $0.hasPrefix("avatar:") }, "\(title)")
                #expect(!result.output.contains("COREAE3B9CE81F37BFC43211BFD542B4F9CB"), "no author id")
            }
        }
    }

    @Test("on a terminal, read draws the avatar beside the byline")
    func readAvatar() async throws {
        let result = await LayoutTests.terminal(width: 120, height: 40).run(LayoutTests.article)
        let lines = LayoutTests.lines(result.output)
        let byline = try #require(lines.first { $0.contains("by Priya Natarajan · Nov 29, 2025") })
        #expect(byline.hasPrefix("\u{1B}["), "a drawing to the left of the byline")
        #expect(!result.output.contains("[image: "))
        #expect(!result.output.contains("(?) "), "nothing failed to draw")
    }

    @Test("on a terminal, home draws the logo beside the company name; off it, the logo is named")
    func homeLogo() async throws {
        let drawn = await LayoutTests.terminal(width: 100, height: 40).run("home")
        #expect(drawn.code == 0, "\(drawn.errors)")
        let lines = LayoutTests.lines(drawn.output)
        let name = try #require(lines.first { $0.contains("Café Supremo") })
        // The logo's transparent corners are spaces: its lines hold colours, not always at their start.
        #expect(name.hasSuffix("  \u{1B}[1mCafé Supremo\u{1B}[0m"))
        #expect(name.dropLast("\u{1B}[1mCafé Supremo\u{1B}[0m".count).contains("\u{1B}["), "the logo to its left")
        let drawing = lines.prefix { !LayoutTests.plain($0).isEmpty }
        #expect(drawing.count >= 3 && drawing.allSatisfy { $0.contains("\u{1B}[") })
        #expect(!drawn.output.contains("logo"))
        #expect(drawn.output.contains("  1  Brewing at Home\n"))
        let plain = await Shell().run("home")
        #expect(
            plain.output.hasPrefix(
                "Café Supremo\n[logo: cafe-supremo-logo.png (CONT36B10CB22C08787B0F88C7DDA05DC36E)]\n"))
    }

    @Test("on a terminal, author draws the avatar beside the name and description; off it, it is named")
    func authorAvatar() async throws {
        let drawn = await LayoutTests.terminal(width: 100, height: 40).run("author priya")
        #expect(drawn.code == 0, "\(drawn.errors)")
        let lines = LayoutTests.lines(drawn.output)
        let name = try #require(lines.first { $0.contains("Priya Natarajan") })
        #expect(name.hasPrefix("\u{1B}[") && name.hasSuffix("  \u{1B}[1mPriya Natarajan\u{1B}[0m"))
        let bio = try #require(lines.first { $0.contains("Barista trainer") })
        #expect(bio.hasPrefix("\u{1B}["), "the description is beside the avatar too")
        #expect(!drawn.output.contains("avatar"))
        #expect(drawn.output.contains("16 articles, newest first\n"))
        let plain = await Shell().run("author priya")
        #expect(
            plain.output.contains("\n[avatar: avatar-priya-natarajan.jpg (CONT7BD96EFE23B5DB335C842E846717EB04)]\n"))
    }

    @Test("an image that cannot be drawn is its placeholder line, and the text is still there")
    func placeholder() async throws {
        let shell = LayoutTests.terminal(width: 100, height: 40)
        let home = try #require(try? await BlogChannel(shell.session).home())
        let logo = await BlogPicture.draw(
            DeliveryAPI.downloadNative(id: "CONT00000000000000000000000000000000"), label: "logo missing",
            columns: HomeCommand.logoColumns, rows: HomeCommand.logoRows, in: shell.session)
        let screen = HomeCommand.screen(home, topics: [], logo: logo, styled: true)
        #expect(screen.hasPrefix("(?) logo missing: HTTP 404\n\u{1B}[1mCafé Supremo\u{1B}[0m\n"))
    }

    @Test(
        "json, csv and a pipe keep the structured and plain output: no drawing, no styles", arguments: ["json", "csv"])
    func formats(format: String) async {
        let shell = LayoutTests.terminal(width: 120, height: 40)
        _ = await shell.run("set format \(format)")
        for statement in ["home", "author priya", LayoutTests.article] {
            let result = await shell.run(statement)
            #expect(result.code == 0, "\(result.errors)")
            #expect(!result.output.contains("\u{1B}"), "\(statement)")
            if format == "json" { #expect(result.output.hasPrefix("{") || result.output.hasPrefix("[")) }
        }
    }
}
