// Golden files: user-visible text pinned in `Tests/OCEQLanguageTests/Golden/`. Run the tests with
// OCEQ_RECORD_GOLDEN=1 to write the files afresh from what the code prints now, then review the
// diff before committing it.

import Foundation
import OCEQTestSupport
import Testing

/// Compares `actual` with the golden file `name`, or records it when OCEQ_RECORD_GOLDEN=1.
func expectGolden(_ actual: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    GoldenFile.expect(
        actual, named: name,
        in: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden"),
        sourceLocation: sourceLocation)
}
