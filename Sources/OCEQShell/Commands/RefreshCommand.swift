import OCEQLanguage

/// `refresh`: forget the channel's catalog (types, fields, item names) that Tab completion and the checks of
/// statements read, so that the next Tab or statement asks again.
package enum RefreshCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "refresh", abstract: "forget the channel's types, fields and names that Tab completion cached",
        usage: "refresh", examples: ["refresh"]
    ).sendingNothing(because: "it forgets what completion cached")

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        if case .command(let command) = statement, let extra = command.arguments.first {
            throw .usage("refresh takes no arguments", span: extra.span)
        }
        let count = session.completionCache.count
        session.completionCache.clear()
        return .text("forgot \(count) completion lookup\(count == 1 ? "" : "s")\n")
    }
}
