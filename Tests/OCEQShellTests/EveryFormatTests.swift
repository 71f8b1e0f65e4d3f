// Issue 18, point 2: every command that returns data honours the output format. Each command of
// every module runs in the built binary on the sample channel under csv, json and ndjson: json is
// one JSON value (one per line after a setup statement), ndjson one JSON value per line, csv CRLF-ended records (never an aligned table
// or a screen). Downloads and mirrors write into a fresh folder.

import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@Suite("Every command that returns data honours --format")
struct EveryFormatTests {
    /// A statement, and the statements before it that give it rows (`@n`).
    static let commands: [(setup: String, command: String)] = [
        ("", "list type=OCEGettingStartedArticle fields published_date,topic limit 3"),
        ("", "first type=OCEGettingStartedTopic"),
        ("", "count type=Image"),
        ("", "get slug:spiced-maple-latte"),
        ("", "types"),
        ("", "fields slug:spiced-maple-latte"),
        ("", "field slug:spiced-maple-latte author"),
        ("", "field slug:spiced-maple-latte author --raw"),
        ("", "show slug:spiced-maple-latte"),
        ("", "show slug:spiced-maple-latte --raw"),
        ("", "renditions slug:image-flat-white-23"),
        ("", "preview slug:image-flat-white-23"),
        ("", "taxonomies"),
        ("", "categories CSG"),
        ("", "home"),
        ("", "topics"),
        ("topics", "articles @1"),
        ("", "author"),
        ("", "author \"Hana Kim\""),
        ("", "set"),
        ("", "plugins"),
        ("", "download (list type=Image order name limit 2) to DIR/d"),
        ("", "mirror DIR/m (list type=Image order name limit 1)"),
    ]

    @Test(
        "csv, json and ndjson of each command", arguments: EveryFormatTests.commands.indices, ["csv", "json", "ndjson"])
    func format(index: Int, format: String) async throws {
        let (setup, command) = Self.commands[index]
        let folder = TestTemporary.make("every-format")
        defer { TestTemporary.remove(folder) }
        var arguments = ["--format", format]
        if !setup.isEmpty { arguments += ["-c", setup] }
        let result = try await OceqBinary.run(
            arguments + ["-c", command.replacingOccurrences(of: "DIR", with: folder)])
        #expect(result.code == 0, "\(command): \(result.stderr)")
        let output = result.stdout
        #expect(!output.isEmpty, "\(command) printed nothing as \(format)")
        switch format {
        case "json" where setup.isEmpty:
            #expect(throws: Never.self, "\(command): \(output.prefix(300))") { _ = try JSON.parse(output) }
        case "json", "ndjson":
            for line in output.split(separator: "\n") {
                #expect(throws: Never.self, "\(command): \(line.prefix(300))") { _ = try JSON.parse(String(line)) }
            }
        default:
            #expect(output.hasSuffix("\r\n"), "\(command): \(output.prefix(300))")
            #expect(
                !output.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "\(command): \(output.prefix(300))")
        }
    }
}
