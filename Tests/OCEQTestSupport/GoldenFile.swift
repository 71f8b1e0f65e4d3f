// Golden files: user-visible text pinned in a test target's `Golden/` folder. Run the tests with
// OCEQ_RECORD_GOLDEN=1 to write the files afresh from what the code prints now, then review the
// diff before committing it. A recording run fails (each recorded file is a test failure that
// says so), so a run that re-records can never pass for one that compared. Shared by every test
// target that pins output.

import Foundation
import Testing

/// Golden-file comparison for the test targets.
public enum GoldenFile {
    /// Compares `actual` with the file `name` in `directory`; a difference is reported with the
    /// first line that differs. With OCEQ_RECORD_GOLDEN=1 it writes the file instead and records a
    /// failure saying so: a recording run never passes.
    public static func expect(
        _ actual: String, named name: String, in directory: URL, sourceLocation: Testing.SourceLocation
    ) {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["OCEQ_RECORD_GOLDEN"] == "1" {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try actual.write(to: file, atomically: false, encoding: .utf8)
                Issue.record(
                    "recorded golden file \(name) (OCEQ_RECORD_GOLDEN=1): review the diff, then run again without it",
                    sourceLocation: sourceLocation)
            } catch {
                Issue.record("could not record \(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("missing golden file \(name); run with OCEQ_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first =
                zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            let shownExpected = first < expectedLines.count ? String(expectedLines[first]) : "<end>"
            let shownActual = first < actualLines.count ? String(actualLines[first]) : "<end>"
            Issue.record(
                "\(name) differs at line \(first + 1):\n  expected: \(shownExpected)\n  actual:   \(shownActual)",
                sourceLocation: sourceLocation)
        }
    }
}
