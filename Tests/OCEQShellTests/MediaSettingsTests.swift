import Testing

@testable import OCEQShell

@MainActor
@Suite("Rich text and image settings")
struct MediaSettingsTests {
    @Test("--images takes a mode; an unknown one is a usage error")
    func flag() throws {
        #expect(try CLIOptions.parse(["--images", "kitty"]).images == .kitty)
        #expect(try CLIOptions.parse(["--images=never"]).images == .never)
        #expect(try CLIOptions.parse([]).images == nil)
        #expect(throws: (any Error).self) { try CLIOptions.parse(["--images", "png"]) }
    }

    @Test("set html and set images change the settings; bad values are usage errors")
    func set() async {
        let (session, _, errors) = makeSession(connection: nil)
        #expect(await ScriptRunner.run(text: "set html raw\nset images sixel", fileName: nil, in: session) == 0)
        #expect(session.settings.html == .raw)
        #expect(session.settings.images == .sixel)
        #expect(session.settings.summary.contains("html     raw\nimages   sixel\n"))
        #expect(await ScriptRunner.run(text: "set images kity", fileName: nil, in: session) != 0)
        #expect(errors.text.contains("unknown image mode 'kity'; did you mean 'kitty'?"))
        #expect(await ScriptRunner.run(text: "set html markdown", fileName: nil, in: session) != 0)
        #expect(errors.text.contains("set html takes text or raw, not 'markdown'"))
    }

    @Test("sixel, kitty and iTerm2 output skips the pager; symbols and text do not")
    func pagerSkipsGraphics() {
        #expect(Pager.hasGraphics(.text("\u{1B}Pq#0;2;0;0;0\u{1B}\\")))
        #expect(Pager.hasGraphics(.text("\u{1B}_Ga=T,f=32;AAAA\u{1B}\\")))
        #expect(!Pager.hasGraphics(.text("\u{1B}[38;5;1m▀\u{1B}[0m")))
    }
}
