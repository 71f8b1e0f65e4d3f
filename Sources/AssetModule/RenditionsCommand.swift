// `renditions X [NAME]`: the renditions of a digital asset from `fields.renditions`, one row per
// format (name, type, format, width × height, size), then the native file. A content item has
// none; a NAME the asset lacks is answered with the names it has.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `renditions`: an asset's renditions.
package enum RenditionsCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "renditions", abstract: "the renditions of a digital asset: name, format, width × height, size",
        usage: "renditions ID|@n|$VAR|slug:SLUG|(first ...) [NAME]",
        examples: ["renditions @1", "renditions @1 Thumbnail", "renditions slug:image-flat-white-23"]
    ).planning(AssetPlans.item)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let argument = try ItemLookup.itemArgument(
            command.arguments, of: command, usage: descriptor.usage, limit: 2)
        let name = command.arguments.count > 1 ? try ItemLookup.text(command.arguments[1], in: session) : nil
        let read = try await ItemLookup.read(argument, of: command, in: session)
        let asset = try await ItemLookup.fetch(read, at: argument.span, in: session)
        guard let file = asset.digitalAsset else {
            throw .usage(
                FieldText.reference(name: asset.name, type: asset.type, id: asset.id)
                    + " is a content item: it has no renditions",
                span: argument.span)
        }
        var renditions = file.renditions
        if let name {
            renditions = [try rendition(name, of: asset, file: file, span: command.arguments[1].span)]
        }
        return .table(table(asset: asset, file: file, renditions: renditions))
    }

    /// The rendition `name` of `asset`, or a usage error naming the renditions it has.
    static func rendition(
        _ name: String, of asset: Asset, file: DigitalAssetFields, span: SourceSpan
    )
        throws(ShellError) -> Rendition
    {
        guard let rendition = file.rendition(named: name) else {
            let has = file.renditions.map(\.name)
            let suggestion = Suggestions.closest(to: name, among: has).map { "did you mean '\($0)'? " } ?? ""
            throw .usage(
                TerminalText.clean(
                    "\(asset.name) has no rendition '\(name)'; " + suggestion
                        + (has.isEmpty ? "it has none" : "it has \(has.joined(separator: ", "))")),
                span: span)
        }
        return rendition
    }

    static func dimensions(_ width: Int?, _ height: Int?) -> String {
        guard let width, let height else { return "" }
        return "\(width) × \(height)"
    }

    /// One row per format of each of `renditions`, under the asset, with the native file below;
    /// the records are the renditions as the server sent them.
    static func table(asset: Asset, file: DigitalAssetFields, renditions: [Rendition]) -> Table {
        var rows: [[String]] = []
        // csv: width and height as numbers of their own, and no size in words.
        var plain: [[String]] = []
        for rendition in renditions {
            for format in rendition.formats {
                rows.append([
                    rendition.name, rendition.type ?? "", format.format, dimensions(format.width, format.height),
                    format.size.map { "\($0)" } ?? "", format.size == 0 ? "not generated" : FieldText.size(format.size),
                ])
                plain.append([
                    rendition.name, rendition.type ?? "", format.format, format.width.map { "\($0)" } ?? "",
                    format.height.map { "\($0)" } ?? "", format.size.map { "\($0)" } ?? "",
                ])
            }
        }
        let all = asset.fields?["renditions"]?.arrayValue ?? []
        let chosen = all.filter { element in renditions.contains { $0.name == element["name"]?.stringValue } }
        let native = [
            asset.fileExtension ?? file.fileType ?? "", dimensions(file.width, file.height),
            file.size.map { "\($0) bytes (\(FieldText.size($0)))" } ?? "",
        ].filter { !$0.isEmpty }
        let footer = (rows.isEmpty ? "(no renditions)\n" : "") + "native: " + native.joined(separator: ", ")
        return Table(
            columns: ["name", "type", "format", "width × height", "bytes", "size"], rows: rows, records: chosen,
            title: FieldText.reference(name: asset.name, type: asset.type, id: asset.id), footer: footer,
            plain: Table.Plain(columns: ["name", "type", "format", "width", "height", "bytes"], rows: plain))
    }
}
