// The built oceq binary over `HostileChannel` (issue 10, part 3): every command and renderer
// finishes, prints no ESC (or other control byte) that came from the content, writes nothing into
// the folder it runs in, and stays within bounded memory.

import Foundation
import OCEQTestSupport
import Testing

@Suite("Hostile channel: the binary over an export built to attack it", .serialized)
struct HostileChannelTests {
    /// A fresh hostile export in a temporary folder (removed by the caller); its huge field is
    /// `hugeBytes` long.
    static func makeChannel(hugeBytes: Int) throws -> HostileChannel {
        try HostileChannel.write(
            to: NSTemporaryDirectory() + "oceq-hostile-\(UUID().uuidString)", hugeBytes: hugeBytes)
    }

    /// Peak memory allowed to one run (KiB): the export holds a 10 MB field and a 4 MB page.
    static let memoryLimitKiB = 600 * 1024

    /// Statements over every command that reads the channel; `@1` refers to the listing before.
    static func statements(_ c: HostileChannel) -> [String] {
        let hostile = HostileChannel.names.count
        return [
            "list type=OCEGettingStartedTopic", "get @1", "show @1", "fields @1", "field @1 thumbnail",
            "list type=OCEGettingStartedTopic order name desc limit 3", "show @2 --raw",
            "list type=OCEGettingStartedAuthor limit 500", "list limit 500 offset 0", "count",
            "list type=Image", "get @1", "show @1", "fields @1", "renditions @1", "renditions @3",
            "list type=OCEGettingStartedArticle limit 100", "fields @4", "field @4 image_caption",
            "field @4 article_content", "show @4", "types", "taxonomies", "home", "topics", "articles @3",
            "topics", "articles @1", "read @1", "read @2", "author", "get \(c.hugeArticleID)",
            "show \(c.hugeArticleID)",
            "fields \(c.hugeArticleID)", "field \(c.hugeArticleID) article_content", "read \(c.hugeArticleID)",
            "get \(c.deepArticleID)", "show \(c.deepArticleID)", "fields \(c.deepArticleID)",
            "get \(c.nestedArticleID)", "show \(c.nestedArticleID)", "fields \(c.nestedArticleID)",
            "field \(c.nestedArticleID) image_caption", "read \(c.nestedArticleID)",
            "field \(c.deepArticleID) image_caption", "read \(c.deepArticleID)", "get \(c.invalidUTF8ArticleID)",
            "read \(c.invalidUTF8ArticleID)", "get \(c.articleIDs[hostile - 1]) expand all",
            "get \(c.homePageID) expand all", "list search \"HOSTILE\"", "list name ~ \"etc\"",
            "get \(c.imageIDs[0])", "explain list type=OCEGettingStartedTopic", "get NOSUCHITEM",
        ]
    }

    /// The statements each other format runs: listings (the 500-item page among them) and items.
    static func formatStatements(_ c: HostileChannel) -> [String] {
        [
            "list type=OCEGettingStartedTopic", "get @1", "list type=OCEGettingStartedAuthor limit 500",
            "list type=Image", "get @1", "get \(c.nestedArticleID)", "get \(c.invalidUTF8ArticleID)",
            "get \(c.articleIDs[0]) expand all", "get NOSUCHITEM",
        ]
    }

    /// The control bytes of a run's output: C0 other than tab, line feed and the CR of a CRLF (CSV
    /// ends its records so), DEL, and C1 (as UTF-8 `C2 80`...`C2 9F`); the first few, with offsets.
    static func controlBytes(_ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var index = 0
        while index < bytes.count, found.count < 5 {
            let byte = bytes[index]
            let crlf = byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
            if (byte < 0x20 && byte != 0x0A && byte != 0x09 && !crlf) || byte == 0x7F {
                found.append("0x\(String(byte, radix: 16)) at \(index)")
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                found.append("U+\(String(bytes[index + 1], radix: 16)) at \(index)")
            }
            index += 1
        }
        return found
    }

    /// Runs `statements` in a fresh empty folder and checks what every hostile run must satisfy.
    @discardableResult
    static func runChecked(
        _ arguments: [String], input: String, over channel: HostileChannel,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> MeasuredRun {
        let cwd = NSTemporaryDirectory() + "oceq-hostile-cwd-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: cwd) }
        let home = cwd + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let run = try await MeasuredRun.run(
            ["--url", channel.folder, "--color", "never", "--keep-going"] + arguments, input: input,
            environment: ["HOME": home, "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config"],
            directory: cwd, timeLimit: 600)
        #expect(!run.timedOut, "did not finish", sourceLocation: sourceLocation)
        #expect(
            run.code == 0 || run.code == 1, "exit \(run.code): \(run.stderrText.suffix(600))",
            sourceLocation: sourceLocation)
        #expect(
            controlBytes(run.stdout).isEmpty, "control bytes in stdout: \(controlBytes(run.stdout))",
            sourceLocation: sourceLocation)
        #expect(
            controlBytes(run.stderr).isEmpty, "control bytes in stderr: \(controlBytes(run.stderr))",
            sourceLocation: sourceLocation)
        if Sanitizer.memoryCeilingApplies("hostile channel \(arguments.joined(separator: " "))") {
            #expect(
                run.maxResidentKiB < memoryLimitKiB, "peak RSS \(run.maxResidentKiB) KiB",
                sourceLocation: sourceLocation)
        }
        // Nothing but the (possibly created) state and config folders appeared where it ran.
        let written = (FileManager.default.enumerator(atPath: cwd)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix("home") }
        #expect(written.isEmpty, "wrote \(written)", sourceLocation: sourceLocation)
        return run
    }

    @Test(
        "every command over the hostile channel, in each output format, is clean, finishes and stays small",
        arguments: ["table", "expanded", "json", "ndjson", "csv"])
    func everyCommand(format: String) async throws {
        let channel = try Self.makeChannel(hugeBytes: 256 * 1024)
        defer { try? FileManager.default.removeItem(atPath: channel.folder) }
        // Every command in the table format; the listings and items in the others.
        let statements = format == "table" ? Self.statements(channel) : Self.formatStatements(channel)
        let run = try await Self.runChecked(
            ["--format", format], input: statements.joined(separator: "\n") + "\n", over: channel)
        // It really read the hostile content: the names arrive, with their control characters gone.
        #expect(run.stdoutText.contains("HOSTILE-TITLE") || run.stdoutText.contains("HOSTILE"))
        #expect(run.stdoutText.contains("../../etc/x"))
        #expect(run.stdoutText.contains("Author 499"))
        // The blog commands ran over it (home shows the company name).
        #expect(format != "table" || run.stdoutText.contains("Hostile"))
        // Exactly the statements that must fail did, each with its message: the missing item and
        // the item nested past the parsers' cap (skipped by the export reader).
        #expect(run.code == 1)
        let errors = run.stderrText.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.contains { $0.contains("NOSUCHITEM") })
        #expect(
            errors.allSatisfy { $0.contains("NOSUCHITEM") || $0.contains(channel.deepArticleID) },
            "\(errors.joined(separator: "\n"))")
    }

    @Test("a 10 MB text field is read, rendered and printed clean, in bounded memory")
    func hugeField() async throws {
        let channel = try Self.makeChannel(hugeBytes: HostileChannel.hugeFieldBytes)
        defer { try? FileManager.default.removeItem(atPath: channel.folder) }
        let run = try await Self.runChecked([], input: "read \(channel.hugeArticleID)\n", over: channel)
        #expect(run.code == 0, "\(run.stderrText.prefix(600))")
        // The text arrived and was rendered up to the renderer's cap (4 MiB of HTML), with the note
        // that says how much was left out.
        #expect(run.stdout.count > 3 * 1024 * 1024, "\(run.stdout.count) bytes")
        #expect(run.stdoutText.contains("; only the first ") && run.stdoutText.contains(" are shown]"))
        #expect(run.stdoutText.contains("HOSTILE-TITLE"))
    }
}
