// `types`: every type in the channel with its number of items. The type names come from the session's
// channel catalog (`Session.channelSchema`: the server's metadata catalog, else one pass over the listing),
// which completion and the checks of statements read too; each count is the `totalResults` of a
// `type eq` query, as `count type=T` would ask.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `types`: the channel's types and their item counts.
package enum TypesCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "types", abstract: "each content and digital asset type in the channel with its item count",
        usage: "types", examples: ["types"]
    ).planning(AssetPlans.types)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        if let extra = command.arguments.first { throw .usage("types takes no arguments", span: extra.span) }
        let client = try session.requireConnection().client
        let schema = try await session.channelSchema()
        let kinds = schema.types.mapValues(\.isDigitalAsset)
        var rows: [[String]] = []
        var objects: [JSON] = []
        var total = 0
        for type in kinds.keys.sorted() {
            let request = try countRequest(type)
            let page: Page<Asset>
            do {
                page = try await client.fetch(request)
            } catch {
                throw .delivery(error)
            }
            let count = page.totalResults ?? page.count
            total += count
            let kind = kinds[type] == true ? "digital asset" : "content"
            rows.append([TerminalText.clean(type), kind, String(count)])
            objects.append(["type": .string(type), "kind": .string(kind), "items": .int(count)])
        }
        let footer =
            rows.isEmpty
            ? "(no items in this channel)" : "(\(rows.count) type\(rows.count == 1 ? "" : "s"), \(total) items)"
        return .table(Table(columns: ["type", "kind", "items"], rows: rows, records: objects, footer: footer))
    }

    /// The request that counts the items of `type`.
    static func countRequest(_ type: String) throws(ShellError) -> ListAssets {
        do {
            return DeliveryAPI.listAssets().query(try QueryNode.equal(field: "type", value: type)).limit(1)
                .totalResults(true)
        } catch {
            throw .usage("cannot count type \(TerminalText.clean(type)): \(error)", span: nil)
        }
    }
}
