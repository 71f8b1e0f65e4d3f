// `renditions X [NAME]`: the renditions of a digital asset from `fields.renditions`, one row per
// format (name, type, format, width × height, size), then the native file. A content item has
// none; a NAME the asset lacks is answered with the names it has.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `renditions`: an asset's renditions.
public enum RenditionsCommand: Command {
    public static let descriptor = CommandDescriptor(
        name: "renditions", abstract: "the renditions of a digital asset: name, format, width × height, size",
        usage: "renditions ID|@n|$VAR|slug:SLUG|(first ...) [NAME]",
        examples: ["renditions @1", "renditions @1 Thumbnail", "renditions slug:image-flat-white-23"])

    public static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let argument = try ItemLookup.itemArgument(
            command.arguments, of: command, usage: descriptor.usage, limit: 2)
        let name = command.arguments.count > 1 ? try ItemLookup.text(command.arguments[1], in: session) : nil
        let read = try await ItemLookup.read(argument, of: command, in: session)
        let asset = try await ItemLookup.fetch(read, at: argument.span, in: session)
        guard let file = asset.digitalAsset else {
            throw .usage(
                TerminalText.clean("\(asset.id) is a content item (\(asset.type)): it has no renditions"),
                span: argument.span)
        }
        var renditions = file.renditions
        if let name {
            renditions = [try rendition(name, of: asset, file: file, span: command.arguments[1].span)]
        }
        if JSONOutput.wanted(in: session) {
            let all = asset.fields?["renditions"]?.arrayValue ?? []
            let chosen = all.filter { element in renditions.contains { $0.name == element["name"]?.stringValue } }
            return JSONOutput.result(.array(chosen), in: session)
        }
        return .text(text(asset: asset, file: file, renditions: renditions, width: session.output.width))
    }

    /// The rendition `name` of `asset`, or a usage error naming the renditions it has.
    static func rendition(
        _ name: String, of asset: Asset, file: DigitalAssetFields, span: SourceSpan
    )
        throws(ShellError) -> Rendition
    {
        guard let rendition = file.rendition(named: name) else {
            let has = file.renditions.map(\.name).joined(separator: ", ")
            throw .usage(
                TerminalText.clean(
                    "\(asset.name) has no rendition '\(name)'; "
                        + (file.renditions.isEmpty ? "it has none" : "it has \(has)")),
                span: span)
        }
        return rendition
    }

    static func dimensions(_ width: Int?, _ height: Int?) -> String {
        guard let width, let height else { return "" }
        return "\(width) × \(height)"
    }

    static func text(asset: Asset, file: DigitalAssetFields, renditions: [Rendition], width: Int) -> String {
        var rows: [[String]] = []
        for rendition in renditions {
            for format in rendition.formats {
                rows.append([
                    rendition.name, rendition.type ?? "", format.format, dimensions(format.width, format.height),
                    format.size.map { "\($0)" } ?? "", format.size == 0 ? "not generated" : FieldText.size(format.size),
                ])
            }
        }
        var out = FieldText.reference(name: asset.name, type: asset.type, id: asset.id) + "\n"
        if rows.isEmpty {
            out += "(no renditions)\n"
        } else {
            out += TableRenderer.table(
                header: ["name", "type", "format", "width × height", "bytes", "size"],
                rows: rows.map { $0.map(TerminalText.clean) }, width: width)
        }
        let native = [
            asset.fileExtension ?? file.fileType ?? "", dimensions(file.width, file.height),
            file.size.map { "\($0) bytes (\(FieldText.size($0)))" } ?? "",
        ].filter { !$0.isEmpty }
        out += "native: " + TerminalText.clean(native.joined(separator: ", ")) + "\n"
        return out
    }
}
