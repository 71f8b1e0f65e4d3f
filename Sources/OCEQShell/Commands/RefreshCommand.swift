import OCEQLanguage

/// `refresh`: forget what Tab completion learned from the channel (types, fields, item names), so that the
/// next Tab asks again.
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
