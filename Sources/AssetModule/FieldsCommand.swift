// `fields X`: one row per custom field, alphabetical: name, data type, and a one-line summary. The data
// type is the one the session's channel catalog declares when the server's metadata catalog describes the
// item's type; otherwise it is inferred from the value (DeliveryKit's `FieldKind`).

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
            Data types are the type's own where the server's metadata catalog describes it,
            else inferred from the values: text, largetext, number, decimal, boolean,
            datetime, reference, reference list, json, list of ...; an empty field of
            unknown type reads "empty (null)".
            """
    ).completing([.item]).planning(AssetPlans.fields)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let argument = try ItemLookup.itemArgument(command.arguments, of: command, usage: descriptor.usage)
        let read = try await ItemLookup.read(argument, of: command, in: session)
        let asset = try await ItemLookup.fetch(read, at: argument.span, in: session)
        // The catalog only adds the declared types: when it cannot be read, the inferred ones stand.
        let schema = try? await session.channelSchema()
        let declared = schema?.source == .metadataCatalog ? schema?.types[asset.type] : nil
        return .table(FieldsCommand.table(of: asset, declared: declared))
    }

    /// The table of `asset`'s custom fields: each field's summary for people, its value in the
    /// records and in csv; the data types `declared` gives, else inferred.
    static func table(of asset: Asset, declared: SchemaType? = nil) -> Table {
        let fields = asset.customFields.sorted { $0.key < $1.key }
        func typeName(_ name: String, _ value: JSON) -> String {
            guard let field = declared?.field(named: name) else { return FieldKind(value).name }
            if !field.isList { return field.dataType.rawValue }
            return field.dataType == .reference ? "reference list" : "list of \(field.dataType.rawValue)"
        }
        let rows = fields.map { name, value in
            [TerminalText.clean(name), typeName(name, value), FieldText.summary(value)]
        }
        let records = fields.map { name, value -> JSON in
            ["name": .string(name), "type": .string(typeName(name, value)), "value": value]
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
            shrinkOrder: [2, 0],
            // csv: each value whole, as `show` writes it there, not the screen's one-line summary.
            plain: Table.Plain(
                columns: ["field", "type", "value"],
                rows: fields.map { name, value in [name, typeName(name, value), ItemColumns.text(of: value)] }))
    }
}
