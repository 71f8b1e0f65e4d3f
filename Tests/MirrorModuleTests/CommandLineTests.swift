// `oceq mirror DIR [--query STATEMENT]`: the arguments become the REPL statement, and the built
// binary runs it once with the usual connection and exit codes.

import Foundation
import OCEQCore
import OCEQShell
import OCEQTestSupport
import Testing

@Suite("oceq mirror on the command line")
struct CommandLineTests {
    @Test("the arguments become one mirror statement")
    func statementText() throws {
        #expect(try SubcommandStatement.mirror(["out"]) == #"mirror "out""#)
        #expect(try SubcommandStatement.mirror(["out", "--query", "type=Image"]) == #"mirror "out" (list type=Image)"#)
        #expect(
            try SubcommandStatement.mirror(["out", "-q", "first type=Image"]) == #"mirror "out" (first type=Image)"#)
        #expect(throws: UsageError.self) { try SubcommandStatement.mirror(["out", "--query", "count type=Image"]) }
        #expect(
            try SubcommandStatement.mirror(["--query=list name ~ tea", "o\"ut"]) == #"mirror 'o"ut' (list name ~ tea)"#)
        #expect(throws: UsageError.self) { try SubcommandStatement.mirror([]) }
        #expect(throws: UsageError.self) { try SubcommandStatement.mirror(["a", "b"]) }
        #expect(throws: UsageError.self) { try SubcommandStatement.mirror(["a", "--force"]) }
        #expect(throws: UsageError.self) { try SubcommandStatement.mirror(["a\"'b"]) }
        #expect(throws: UsageError.self) { try SubcommandStatement.mirror(["a", "--query", "type=X\nquit"]) }
    }

    @Test("oceq mirror DIR --query writes the selection and what it refers to; a bad target exits 1")
    func binary() async throws {
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try await OceqBinary.run(["mirror", folder + "/topics", "--query", "type=OCEGettingStartedTopic"])
        #expect(run.code == 0, "\(run.stderr)")
        // The 7 topics and the 7 thumbnails they refer to.
        #expect(run.stdout.contains("mirrored 14 items (14 written, 0 unchanged), 7 files (7 fetched"), "\(run.stdout)")
        #expect(run.stdout.contains("7 of the items are not in the selection but referred to by it"))
        let items = filesUnder(folder + "/topics/contentexport/ContentItems/OCEGettingStartedTopic")
        #expect(items.count == 7)
        let sets = filesUnder(folder + "/topics/contentexport/ContentItems/VariationSets")
        #expect(sets.count == 14)
        #expect(
            FileManager.default.fileExists(
                atPath: folder + "/topics/contentexport/ContentTypes/OCEGettingStartedTopic.json"))

        try Data().write(to: URL(fileURLWithPath: folder + "/file"))
        let bad = try await OceqBinary.run(["mirror", folder + "/file"])
        #expect(bad.code == 1)
        #expect(bad.stderr.contains("is not a folder"), "\(bad.stderr)")
    }
}
