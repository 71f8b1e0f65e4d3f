// `preview X [rendition NAME]`: an image asset drawn in the terminal. The native file (or the named
// rendition) is fetched through the session's client into a private temporary folder, decoded by
// libvips at the size it is drawn (shrink-on-load) and drawn by chafa in the style `set images`
// or --images picks. Off a terminal nothing is drawn: one line says what would have been.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell
import TerminalMedia

/// `preview`: an image in the terminal.
package enum PreviewCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "preview", abstract: "draw an image asset in the terminal (symbols, sixel, kitty or iTerm2)",
        usage: "preview ID|@n|$VAR|slug:SLUG|(first ...) [rendition NAME]",
        examples: ["preview @1", "preview @1 rendition Thumbnail", "preview slug:image-flat-white-23"],
        discussion: """
            Draws the native file, or the named rendition, fitted to the terminal. The protocol is
            the best the terminal has (kitty, iTerm2, sixel, else Unicode symbols in 256 or true
            colour), or what 'set images' / --images says. Nothing is drawn when output is not a
            terminal; an image that cannot be fetched or decoded is a question mark and the reason.
            """
    ).planning(AssetPlans.preview)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        let argument = try ItemLookup.itemArgument(command.arguments, of: command, usage: descriptor.usage, limit: 3)
        var renditionName: String?
        if command.arguments.count > 1 {
            let word = try ItemLookup.text(command.arguments[1], in: session) ?? ""
            guard word == "rendition", command.arguments.count == 3 else {
                throw .usage(
                    "expected 'rendition NAME' after the image; usage: \(descriptor.usage)",
                    span: command.arguments[1].span)
            }
            renditionName = try ItemLookup.text(command.arguments[2], in: session) ?? ""
        }
        let read = try await ItemLookup.read(argument, of: command, in: session)
        let asset = try await ItemLookup.fetch(read, at: argument.span, in: session)
        guard let file = asset.digitalAsset else {
            throw .usage(
                FieldText.reference(name: asset.name, type: asset.type, id: asset.id)
                    + " is a content item: there is no image to draw",
                span: argument.span)
        }
        var request: any DownloadRequest = DeliveryAPI.downloadNative(id: asset.id)
        var label = TerminalText.clean(asset.name)
        if let renditionName {
            let rendition = try RenditionsCommand.rendition(
                renditionName, of: asset, file: file, span: command.arguments[2].span)
            let format = rendition.format("jpg") ?? rendition.formats.first
            request = DeliveryAPI.downloadRendition(id: asset.id, renditionName: rendition.name, format: format?.format)
            label += " (" + TerminalText.clean(rendition.name) + ")"
        }
        // What json, ndjson and csv show: the image, the rendition, and whether it was drawn.
        var data: [String: JSON] = ["id": .string(asset.id), "name": .string(asset.name), "drawn": false]
        if let renditionName {
            data["rendition"] = .string(file.rendition(named: renditionName)?.name ?? renditionName)
        }
        guard let style = session.imageStyle else {
            let why = session.settings.images == .never ? "images are off (set images)" : "output is not a terminal"
            data["reason"] = .string(why)
            return .screen(label + ": not drawn: " + why + "\n", data: .document(.object(data)))
        }
        let columns = min(max(session.output.width, 20), 120)
        let rows = min(max(session.output.height - 3, 8), 48)
        let drawing = await session.drawImage(request, label: label, style: style, columns: columns, rows: rows)
        data["drawn"] = true
        return .screen(label + "\n" + drawing, data: .document(.object(data)))
    }
}
