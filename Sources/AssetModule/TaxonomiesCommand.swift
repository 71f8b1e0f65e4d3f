// `taxonomies`: the channel's published taxonomies (name, short name, id, description), all pages.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `taxonomies`: the published taxonomies.
package enum TaxonomiesCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "taxonomies", abstract: "the taxonomies published to the channel",
        usage: "taxonomies", examples: ["taxonomies"]
    ).planning(AssetPlans.taxonomies)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        if let extra = command.arguments.first { throw .usage("taxonomies takes no arguments", span: extra.span) }
        let taxonomies = try await all(in: session)
        let rows = taxonomies.map { taxonomy in
            [taxonomy.name, taxonomy.shortName ?? "", taxonomy.id, FieldText.excerpt(taxonomy.description ?? "")]
                .map(TerminalText.clean)
        }
        let footer =
            rows.isEmpty ? "(no taxonomies in this channel)" : "(\(rows.count) taxonom\(rows.count == 1 ? "y" : "ies"))"
        return .table(
            Table(
                columns: ["name", "short name", "id", "description"], rows: rows, records: taxonomies.map(\.json),
                footer: footer))
    }

    /// Every published taxonomy, by name.
    static func all(in session: Session) async throws(ShellError) -> [Taxonomy] {
        let client = try session.requireConnection().client
        var taxonomies: [Taxonomy] = []
        do {
            for try await taxonomy in client.items(DeliveryAPI.listTaxonomies()) { taxonomies.append(taxonomy) }
        } catch {
            throw .delivery(error)
        }
        return taxonomies.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }
}
