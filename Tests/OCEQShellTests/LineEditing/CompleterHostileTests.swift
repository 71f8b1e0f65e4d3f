import DeliveryKit
import Foundation
import OCEQApp
import OCEQCore
import OCEQLanguage
import OCEQTestSupport
import Testing

@testable import OCEQShell

/// A command whose arguments complete as an item and a field path of it, as `field`'s do (the asset module
/// is not a dependency of these tests).
private enum PathProbe: Command {
    static let descriptor = CommandDescriptor(
        name: "probe", abstract: "a field path of an item (completion tests)", usage: "probe ID|@n PATH",
        examples: ["probe @1 author.name"]
    ).completing([.item, .fieldPath])

    static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult { .none }
}

@MainActor
@Suite("Tab completion over the hostile channel")
struct CompleterHostileTests {
    @Test("values and field paths from content built to attack the terminal carry no control characters")
    func hostileCandidates() async throws {
        let channel = try HostileChannel.write(
            to: NSTemporaryDirectory() + "oceq-hostile-completion-\(UUID().uuidString)", hugeBytes: 64 * 1024)
        defer { try? FileManager.default.removeItem(atPath: channel.folder) }
        let connection = try Connection.open(
            Credentials(url: channel.folder, channelToken: "hostile-token"), opener: InProcessServer())
        let registry = try CommandRegistry(modules: [
            CoreModule.module, Module(name: "probe", commands: [PathProbe.self]),
        ])
        let session = Session(
            registry: registry, connection: connection, output: MemoryOutput(width: 120), errors: MemoryOutput())
        let listed = await ScriptRunner.run(
            text: "list type=OCEGettingStartedArticle limit 100", fileName: nil, in: session, keepGoing: false)
        #expect(listed == 0)
        // After the listing: a source is what the session holds when it is made.
        let completer = Completer(source: SessionCompletionSource(session: session, timeout: .seconds(20)))

        var values: [CompletionCandidate] = []
        for line in [
            "list type=OCEGettingStartedTopic name=", "list type=OCEGettingStartedArticle name=",
            "list type=OCEGettingStartedArticle image_caption=", "list type=OCEGettingStartedAuthor name=",
            "list type=OCEGettingStartedAuthor description=", "list type=Image description=",
            "list type=OCEGettingStartedHomePage company_name=",
        ] {
            let candidates = completer.complete(line: line, cursor: line.count).candidates
            #expect(candidates.count <= ChannelCatalog.mostValues, "\(line)")
            values += candidates
        }
        var paths: [CompletionCandidate] = []
        for line in [
            "probe @1 ", "probe @1 author.", "probe @1 topic.", "probe @1 image.", "probe @2 topic.thumbnail.",
            "get @1 expand ",
        ] {
            paths += completer.complete(line: line, cursor: line.count).candidates
        }
        #expect(values.count > 20, "the hostile names and captions are offered")
        #expect(paths.contains { $0.text == "author.avatar" } && paths.contains { $0.text == "all" })
        for candidate in values + paths {
            #expect(!(candidate.text + candidate.display).unicodeScalars.contains(where: TerminalText.isControl))
        }
        // Every value reads back as one word or one closed string.
        for candidate in values {
            let tokens = Lexer.tokenize(SourceText(candidate.text)).tokens.filter { $0.kind != .end }
            #expect(tokens.count == 1 && (tokens[0].kind == .word || tokens[0].isTerminated), "\(candidate.text)")
        }
        // Long values (the authors' 4 KB descriptions) are left out.
        #expect(values.allSatisfy { $0.display.count <= ChannelCatalog.longestValue })
    }
}
