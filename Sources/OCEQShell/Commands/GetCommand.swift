import DeliveryKit
import OCEQCore
import OCEQLanguage

/// `get`: one item read whole.
package enum GetCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "get", abstract: "read one item whole: by id, by row of the last listing, or by slug",
        usage: "get ID|@n|$VAR|slug:SLUG [expand all|NAME,...]",
        examples: [
            "get @1", "get slug:spiced-maple-latte", "get CORE8C564D27A008AE7CD725776EB309BE9F expand author",
        ]
    ).completing([.item, .expansion]).planning(CorePlans.get)

    /// True for a `get` that names fields to expand (`get @1 expand author`): the session reads the
    /// channel's catalog first, so a misspelt name is found before the read.
    static func expandsNames(_ statement: Statement) -> Bool {
        guard case .command(let command) = statement, command.name == descriptor.name else { return false }
        let words = command.arguments.compactMap { argument -> String? in
            if case .word(let word) = argument.kind { return word }
            return nil
        }
        guard let at = words.firstIndex(where: { Keyword(text: $0) == .expand }), at + 1 < words.count else {
            return false
        }
        return Keyword(text: words[at + 1]) != .all
    }

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard case .command(let command) = statement else { throw .usage("get takes an item", span: nil) }
        let read: CompiledRead
        do {
            read = try session.compiler.compileGet(command)
        } catch {
            throw .diagnostics(error)
        }
        let connection = try session.requireConnection()
        do {
            return .item(try await connection.client.fetch(read.request()))
        } catch {
            throw ItemLookup.map(error, read: read, span: command.arguments.first?.span)
        }
    }
}
