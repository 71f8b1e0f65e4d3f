// `show X [--raw]`: the standard fields, then the custom fields. The API does not serve the content
// type's field order and oceq's JSON objects do not keep the order of keys, so custom fields are
// listed alphabetically. `--raw` prints the item as the server sent it, pretty, keys sorted (the
// channel token in link hrefs is redacted by the client as the answer arrives).

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell
import TerminalMedia

/// `show`: one item, readable.
package enum ShowCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "show", abstract: "one item readable: standard fields, then custom fields (references, dates, excerpts)",
        usage: "show ID|@n|$VAR|slug:SLUG|(first ...) [--raw]",
        examples: ["show @1", "show slug:spiced-maple-latte", "show @2 --raw"],
        discussion: """
            Custom fields are listed alphabetically (the API does not serve a type's field order).
            References read name (type, id); dates read with their offset and zone; long text is
            a one-line excerpt with HTML removed. --raw prints the JSON the server sent.
            """
    ).completing([.item]).planning(AssetPlans.item)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let options = try ItemLookup.options(command.arguments, allowed: ["--raw"])
        let rest = options.rest
        let argument = try ItemLookup.itemArgument(rest, of: command, usage: descriptor.usage)
        let read = try await ItemLookup.read(argument, of: command, in: session)
        if options.flags.contains("--raw") {
            let json = try await ItemLookup.fetchJSON(read, at: argument.span, in: session)
            return .screen(TerminalText.cleanKeepingLines(JSONWriter(indent: 2).string(json)), data: .document(json))
        }
        let asset = try await ItemLookup.fetch(read, at: argument.span, in: session)
        return .screen(ShowCommand.text(of: asset), data: .item(asset))
    }

    /// The text `show` prints for `asset`.
    static func text(of asset: Asset) -> String {
        let lines = ShowCommand.standardLines(asset)
        var fieldLines: [(String, String)] = []
        for (name, value) in asset.customFields.sorted(by: { $0.key < $1.key }) {
            if case .array(let elements) = value, !elements.isEmpty,
                FieldKind(value) == .list(.reference) || elements.count > 1
            {
                for (index, element) in elements.enumerated() {
                    fieldLines.append((index == 0 ? name : "", "[\(index + 1)] " + FieldText.summary(element)))
                }
            } else {
                fieldLines.append((name, FieldText.summary(value)))
            }
        }
        let width = (lines + fieldLines.map { ("  " + $0.0, $0.1) }).map { TerminalText.width(of: $0.0) }.max() ?? 0
        var out = ""
        for (label, value) in lines { out += line(label, value, width: width) }
        if asset.fields == nil {
            out += "\n(a summary without fields: read it by id to see them)\n"
        } else if fieldLines.isEmpty {
            out += "\n(no custom fields)\n"
        } else {
            out += "\nfields (alphabetical)\n"
            for (label, value) in fieldLines { out += line("  " + label, value, width: width) }
        }
        return out
    }

    static func line(_ label: String, _ value: String, width: Int) -> String {
        let text = TerminalText.pad(TerminalText.clean(label), to: width) + "  " + value
        return text.trimmingTrailingSpaces() + "\n"
    }

    /// id, type, name, description, slug, language, dates; for a digital asset its file facts.
    static func standardLines(_ asset: Asset) -> [(String, String)] {
        let clean = TerminalText.clean
        let kind = asset.isDigitalAsset ? "digital asset" : "content item"
        var lines: [(String, String)] = [
            ("id", clean(asset.id)), ("type", clean(asset.type) + " (\(kind))"), ("name", clean(asset.name)),
            ("description", clean(asset.description)),
        ]
        if let slug = asset.slug { lines.append(("slug", clean(slug))) }
        if let language = asset.language { lines.append(("language", clean(language))) }
        if let translatable = asset.translatable { lines.append(("translatable", translatable ? "yes" : "no")) }
        if let created = asset.raw["createdDate"] { lines.append(("created", FieldText.date(created))) }
        if let updated = asset.raw["updatedDate"] { lines.append(("updated", FieldText.date(updated))) }
        if let file = asset.digitalAsset {
            if let mimeType = file.mimeType ?? asset.mimeType { lines.append(("mime type", clean(mimeType))) }
            if let size = file.size { lines.append(("size", "\(size) bytes (\(FieldText.size(size)))")) }
            if let width = file.width, let height = file.height { lines.append(("dimensions", "\(width) × \(height)")) }
            if !file.renditions.isEmpty {
                lines.append(("renditions", clean(file.renditions.map(\.name).joined(separator: ", "))))
            }
        }
        for taxonomy in asset.taxonomies ?? [] where !taxonomy.categories.isEmpty {
            let categories = taxonomy.categories.map(\.name).joined(separator: ", ")
            lines.append(("taxonomy", clean("\(taxonomy.name): \(categories)")))
        }
        return lines
    }
}
