// Scripts/unfinished-tests, which Scripts/test runs on the log of a run that hangs: the tests that
// started and never ended are the report's whole point, so the script is checked on a log here.

import Foundation
import OCEQTestSupport
import Testing

@Suite("Scripts/unfinished-tests")
struct UnfinishedTestsScriptTests {
    static let script = OceqBinary.repositoryRoot.appendingPathComponent("Scripts/unfinished-tests").path

    @Test("names the tests that started and never passed, failed or were skipped")
    func unfinished() async throws {
        let log = """
            ◇ Test run started.
            ◇ Suite "a suite" started.
            ◇ Test "passes" started.
            ◇ Test "fails" started.
            ◇ Test "is skipped" started.
            ◇ Test "hangs" started.
            ◇ Test "hangs too" started.
            ◇ Test "with cases" started.
            ◇ Test case passing 1 argument n → 1 to "with cases" started.
            ◇ Test "a "quoted" name" started.
            ◇ Test "records an issue, then hangs" started.
            ✘ Test "records an issue, then hangs" recorded an issue at Y.swift:2:2: Expectation failed
            ✔ Test "passes" passed after 0.1 seconds.
            ✘ Test "fails" recorded an issue at X.swift:1:1: Expectation failed
            ✘ Test "fails" failed after 0.2 seconds with 1 issue.
            ↷ Test "is skipped" skipped.
            ✔ Test "with cases" with 1 test case passed after 0.3 seconds.
            ✔ Test "a "quoted" name" passed after 0.1 seconds.
            ✔ Test "hangs too long" passed after 0.1 seconds.

            """
        try await withTemporaryFolder { folder in
            let path = folder + "/run.log"
            try log.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await ChildProcess.run("/bin/bash", [Self.script, path])
            #expect(result.code == 0, "\(result.stderrText)")
            #expect(
                Set(result.stdoutText.split(separator: "\n")) == [
                    "\"hangs\"", "\"hangs too\"", "\"records an issue, then hangs\"",
                ])
        }
        let usage = try await ChildProcess.run("/bin/bash", [Self.script])
        #expect(usage.code == 2 && usage.stderrText.hasPrefix("usage: Scripts/unfinished-tests LOG"))
    }
}
