import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQLanguage

/// `connect`: switch to another channel; on failure the current one is kept.
package enum ConnectCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "connect", abstract: "switch to another channel: a server and token, or an export folder or zip",
        usage: "connect URL|PATH [TOKEN] | connect PROFILE",
        examples: [
            "connect https://example.com 0123456789abcdef", "connect Samples/OCEGettingStarted", "connect staging",
        ],
        discussion: """
            A PROFILE is a name in ~/.config/oceq/profiles.json. A PATH is served in-process like a local url in credentials.json. If the channel cannot be
            reached or refuses the token, the current connection stays. connect lines are never kept
            in history.
            """
    ).completing([.profile]).planning(plan)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let credentials = try credentials(statement, in: session)
        let connection = try Connection.open(credentials, opener: session.localExportOpener)
        let items = try await connection.probe()
        session.connection = connection
        session.lastRows = nil
        // What Tab learned was the other channel's.
        session.completionCache.clear()
        let count = items.map { ", \($0) items" } ?? ""
        return .text("connected to \(TerminalText.clean(connection.channelName))\(count)\n")
    }
    /// The credentials `statement` names: a profile, or a url or export path and a token.
    static func credentials(_ statement: Statement, in session: Session) throws(ShellError) -> Credentials {
        guard case .command(let command) = statement, (1...2).contains(command.arguments.count) else {
            let span: SourceSpan? =
                if case .command(let command) = statement {
                    command.arguments.count > 2 ? command.arguments[2].span : .at(command.nameSpan.end)
                } else { nil }
            throw .usage("connect takes a url (or export path) and optionally a token", span: span)
        }
        var words: [String] = []
        for argument in command.arguments {
            switch argument.kind {
            case .word(let word): words.append(word)
            case .value(let value):
                do {
                    words.append(try session.compiler.resolve(value))
                } catch {
                    throw .diagnostics(error)
                }
            default: throw .usage("connect takes a url and a token", span: argument.span)
            }
        }
        var credentials: Credentials
        let isProfile =
            words.count == 1 && !words[0].contains("/") && !words[0].contains(":")
            && !FileManager.default.fileExists(atPath: XDGPaths.resolve(words[0], in: session.baseDirectory))
        if isProfile {
            credentials = try Credentials.profile(words[0], environment: ProcessEnvironment.current())
        } else {
            credentials = Credentials(
                url: Credentials.absoluteURL(words[0], session.baseDirectory),
                channelToken: words.count > 1 ? words[1] : nil,
                bearer: session.connection?.client.configuration.bearerToken?.revealedForRequest)
        }
        // How https is checked is the session's (`--cacert`, `--insecure`), whatever channel it moves to.
        credentials.insecure = session.connection?.insecure ?? false
        credentials.caBundle = session.connection?.caBundle
        return credentials
    }

    /// The request `connect` sends to the new channel (the probe), with the client it would use; an
    /// export is served on a port chosen when it starts, so it cannot be shown before.
    static func plan(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let credentials = try credentials(statement, in: session)
        if credentials.isLocalExport {
            return .unknown("an export is served on a loopback port chosen when it is opened; connect, then explain")
        }
        let connection = try Connection.open(credentials, opener: nil)
        var probe = PlannedRequest(
            "the first item and the number of items, to check the channel", Connection.probeRequest)
        probe.client = connection.client
        return .requests([probe])
    }
}
