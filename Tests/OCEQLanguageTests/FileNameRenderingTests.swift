// A file name in a diagnostic's header comes from the disk, not the user's typing: a QA run
// showed `oceq lint` and `--plugin` printing the ESC of a file named "\e[31mevil.oceq" raw.

import OCEQLanguage
import Testing

@Suite("Rendering diagnostics: file names")
struct FileNameRenderingTests {
    @Test("control characters of the file name are not printed")
    func controlCharactersInFileName() {
        let text = "echo \"x"
        let rendered = DiagnosticRenderer(fileName: "/tmp/\u{1B}[31mevil\u{7}.oceq").render(
            allDiagnostics(text), in: SourceText(text))
        #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(rendered.contains("[31mevil"))
        #expect(rendered.contains(".oceq:1:6: error: unterminated string"), "\(rendered)")
    }
}
