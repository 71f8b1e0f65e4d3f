// Every example in every command's help runs against the bundled sample channel without a "not
// found": the slugs, names and types the examples use exist there (issue 18, point 9). The
// commands and their examples are read from the built binary's own `help`, so every module's
// commands are covered; the examples run as one script with --keep-going in an empty folder (the
// downloads and mirrors they make land there), after a listing that gives `@n` rows to refer to.

import Foundation
import OCEQTestSupport
import Testing

@Suite("Help examples run on the sample channel", .serialized)
struct HelpExamplesTests {
    /// The command names `help` lists (the first of each line's names).
    static func commandNames(_ overview: String) -> [String] {
        overview.components(separatedBy: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap {
            $0.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "," }).first.map(String.init)
        }
    }

    /// The examples of each `help COMMAND` text in `details`, in order.
    static func examples(_ details: String) -> [String] {
        var examples: [String] = []
        var inExamples = false
        for line in details.components(separatedBy: "\n") {
            if line == "examples:" {
                inExamples = true
            } else if inExamples && line.hasPrefix("  ") {
                examples.append(String(line.dropFirst(2)))
            } else {
                inExamples = false
            }
        }
        return examples
    }

    @Test("no example of any command's help fails with not found")
    func examplesFindWhatTheyName() async throws {
        let overview = try await OceqBinary.run(["-c", "help"])
        let names = Self.commandNames(overview.stdout)
        #expect(names.contains("download") && names.contains("read") && names.contains("fields"))
        let skipped: Set<String> = ["quit", "connect"]  // they end or replace the session
        let details = try await OceqBinary.run(
            [], input: names.filter { !skipped.contains($0) }.map { "help \($0)\n" }.joined())
        let examples = Self.examples(details.stdout)
        #expect(examples.count > 40, "\(details.stderr)")
        let folder = URL(fileURLWithPath: TestTemporary.make("help-examples"))
        defer { TestTemporary.remove(folder.path) }
        let script = "list type=OCEGettingStartedArticle limit 5\n" + examples.joined(separator: "\n") + "\n"
        let credentials = OceqBinary.repositoryRoot.appendingPathComponent("credentials.json").path
        let result = try await OceqBinary.run(
            ["--credentials", credentials, "--keep-going"], input: script, directory: folder)
        let missing = result.stderr.components(separatedBy: "\n").filter {
            $0.contains("not found") || $0.contains("in this channel") || $0.contains("no item ")
                || $0.contains("has no rendition '")
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test("the example readers find names and examples")
    func readers() {
        #expect(
            Self.commandNames("core commands:\n  list        list items\n  quit, exit  leave\n") == ["list", "quit"])
        #expect(Self.examples("usage: a\n\nexamples:\n  a 1\n  a 2\nusage: b\n") == ["a 1", "a 2"])
    }
}
