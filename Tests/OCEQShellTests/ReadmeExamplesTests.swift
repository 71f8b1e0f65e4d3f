// The README's examples are run, so they cannot drift from what oceq prints. A fenced block right
// under a `<!-- oceq-example -->` line is one example: a line starting `$ oceq ` is a command line
// (split as a shell splits it: spaces, '...' and "..."), a line after a prompt (`oceq> `, the sample's
// `OCEGettingStarted> `) a statement, and
// every other line the output expected of the command or statements above it. Consecutive
// statements run in one oceq reading them from stdin, as a script does, so `@n` and `let` carry
// over. Each runs the built binary in the repository's root (the bundled sample channel), with the
// test process's fresh HOME and `COLUMNS=100`; stdout must match exactly, stderr be empty.

import Foundation
import OCEQTestSupport
import Testing

/// One example of the README.
struct ReadmeExample: CustomStringConvertible {
    /// `oceq` arguments for a command line; nil for statements read from stdin.
    var arguments: [String]?
    /// The statements, one per line, for stdin.
    var statements: [String] = []
    /// The output expected.
    var expected = ""
    /// The README line it starts on.
    var line: Int

    var description: String {
        "README.md:\(line): "
            + (arguments.map { "oceq " + $0.joined(separator: " ") } ?? statements.joined(separator: "; "))
    }

    /// The examples of `markdown`, in order.
    static func all(in markdown: String) -> [ReadmeExample] {
        var examples: [ReadmeExample] = []
        var marked = false
        var inBlock = false
        var current: ReadmeExample?
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if !inBlock {
                if line.trimmingCharacters(in: .whitespaces) == "<!-- oceq-example -->" {
                    marked = true
                } else if line.hasPrefix("```") {
                    inBlock = true
                } else if !line.isEmpty {
                    marked = false
                }
                continue
            }
            if line.hasPrefix("```") {
                if let example = current { examples.append(example) }
                current = nil
                inBlock = false
                marked = false
                continue
            }
            guard marked else { continue }
            if line.hasPrefix("$ oceq") {
                if let example = current { examples.append(example) }
                current = ReadmeExample(arguments: split(String(line.dropFirst("$ oceq".count))), line: index + 1)
            } else if let statement = statement(line) {
                if var example = current, example.arguments == nil {
                    // Statements of one block share a session; their outputs follow one another.
                    example.statements.append(statement)
                    current = example
                } else {
                    if let example = current { examples.append(example) }
                    current = ReadmeExample(statements: [statement], line: index + 1)
                }
            } else {
                current?.expected += line + "\n"
            }
        }
        return examples
    }

    /// The statement after a prompt (`oceq> `, `OCEGettingStarted> `: a name, `>` and a space), or nil.
    static func statement(_ line: String) -> String? {
        guard let mark = line.range(of: "> ") else { return nil }
        let prompt = line[..<mark.lowerBound]
        guard let first = prompt.first, first.isLetter,
            prompt.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        else { return nil }
        return String(line[mark.upperBound...])
    }

    /// `text` split into words as a shell splits it: on spaces, with '...' and "..." kept whole.
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

@Suite("The README's examples print what the README says", .serialized)
struct ReadmeExamplesTests {
    static let readme =
        (try? String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    static let examples = ReadmeExample.all(in: readme)

    @Test("the README has marked examples, of both kinds")
    func found() {
        #expect(Self.examples.count >= 3)
        #expect(Self.examples.contains { $0.arguments != nil })
        #expect(Self.examples.contains { $0.arguments == nil })
    }

    @Test("the example parser splits words and groups statements")
    func parser() {
        #expect(ReadmeExample.split(" -c 'list a=\"b c\"' --json") == ["-c", "list a=\"b c\"", "--json"])
        let markdown = """
            <!-- oceq-example -->
            ```
            $ oceq -c 'count'
            3
            oceq> let n = 2
            OCEGettingStarted> echo $n
            2
            ```

            ```
            $ oceq -c 'not an example'
            ```
            """
        let examples = ReadmeExample.all(in: markdown)
        #expect(examples.count == 2)
        #expect(examples.first?.arguments == ["-c", "count"])
        #expect(examples.first?.expected == "3\n")
        #expect(examples.last?.statements == ["let n = 2", "echo $n"])
        #expect(examples.last?.expected == "2\n")
    }

    @Test("each marked example prints what the README shows", arguments: ReadmeExamplesTests.examples.indices)
    func example(index: Int) async throws {
        let example = Self.examples[index]
        let result: (code: Int32, stdout: String, stderr: String)
        if let arguments = example.arguments {
            result = try await OceqBinary.run(arguments, environment: ["COLUMNS": "100"])
        } else {
            result = try await OceqBinary.run(
                [], input: example.statements.joined(separator: "\n") + "\n", environment: ["COLUMNS": "100"])
        }
        #expect(result.code == 0, "\(example): \(result.stderr)")
        #expect(result.stderr == "", "\(example)")
        // CSV ends its lines in CRLF; the README shows lines.
        let printed = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(printed == example.expected, "\(example)\n--- printed:\n\(printed)--- README:\n\(example.expected)")
    }
}
