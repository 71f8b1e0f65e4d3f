// `fields X`: one row per custom field, alphabetical (the API does not serve the type's order):
// name, data type inferred from the value (FieldValue.swift), and a one-line summary.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `fields`: the custom fields of an item.
package enum FieldsCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "fields", abstract: "each custom field of an item: name, data type, value summary",
        usage: "fields ID|@n|$VAR|slug:SLUG|(first ...)",
        examples: ["fields @1", "fields slug:spiced-maple-latte", "fields (first type=OCEGettingStartedHomePage)"],
        discussion: """
            Data types are inferred from the values (the API does not serve the type's
            definition): text, largetext, number, decimal, boolean, datetime, reference,
            reference list, json, list of ...; an empty field reads "empty (null)".
            """
    ).completing([.item]).planning(AssetPlans.item)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let argument = try ItemLookup.itemArgument(command.arguments, of: command, usage: descriptor.usage)
        let read = try await ItemLookup.read(argument, of: command, in: session)
        let asset = try await ItemLookup.fetch(read, at: argument.span, in: session)
        return .table(FieldsCommand.table(of: asset))
    }

    /// The table of `asset`'s custom fields: each field's summary for people, its value in the
    /// records.
    static func table(of asset: Asset) -> Table {
        let fields = asset.customFields.sorted { $0.key < $1.key }
        let rows = fields.map { name, value in
            [TerminalText.clean(name), FieldKind(value).name, FieldText.summary(value)]
        }
        let records = fields.map { name, value -> JSON in
            ["name": .string(name), "type": .string(FieldKind(value).name), "value": value]
        }
        var footer =
            rows.isEmpty ? "(no custom fields)\n" : "(\(rows.count) field\(rows.count == 1 ? "" : "s"), alphabetical)\n"
        if asset.isDigitalAsset, let fields = asset.fields {
            let metadata = fields.keys.filter { asset.customFields[$0] == nil }.sorted()
            if !metadata.isEmpty {
                footer +=
                    "asset metadata (read with field): " + TerminalText.clean(metadata.joined(separator: ", ")) + "\n"
            }
        }
        return Table(
            columns: ["field", "type", "value"], rows: rows, records: records,
            title: FieldText.reference(name: asset.name, type: asset.type, id: asset.id), footer: footer,
            shrinkOrder: [2, 0])
    }
}
