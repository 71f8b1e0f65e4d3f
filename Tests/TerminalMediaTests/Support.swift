// Paths and golden files for the TerminalMedia tests.

import Foundation
import OCEQTestSupport
import Testing

/// The repository's root folder.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The bundled sample channel's export.
let sampleExport = repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted/contentexport")

/// Compares `actual` with the golden file `name`, or records it when OCEQ_RECORD_GOLDEN=1.
func expectGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    GoldenFile.expect(
        actual, named: name, in: repositoryRoot.appendingPathComponent("Tests/TerminalMediaTests/Golden"),
        sourceLocation: sourceLocation)
}

/// `text` with the escape sequences RichText writes itself (SGR styles, OSC 8 links) removed.
func withoutOwnSequences(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        .replacingOccurrences(of: "\u{1B}\\]8;;[!-~]*\u{1B}\\\\", with: "", options: .regularExpression)
}
