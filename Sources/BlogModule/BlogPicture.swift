// One picture on a blog screen (the hero and avatar of `read`, the logo of `home`, the avatar of
// `author`, the thumbnails of `--images`), drawn through the session's one image path
// (`Session.drawImageResult`: download, libvips, chafa). A symbols drawing is lines of text, so
// the screen's text can sit beside it; a sixel, kitty or iTerm2 image cannot be flowed around
// without moving the cursor, so the text goes under it, as it does under a placeholder line.

import DeliveryKit
import OCEQShell
import TerminalMedia

/// A drawn picture (or the placeholder line saying why it is not) and whether text goes beside it.
struct BlogPicture {
    /// The drawing, or the placeholder line; ends in a newline.
    var text: String
    /// True for a symbols drawing: text can be written to its right, line by line.
    var beside: Bool

    /// `request` drawn in at most `columns` × `rows` cells in the session's image style; nil when
    /// the output draws no images (not a terminal, `set images never`).
    @MainActor
    static func draw(
        _ request: any DownloadRequest, label: String, columns: Int, rows: Int, in session: Session
    ) async -> BlogPicture? {
        guard let style = session.imageStyle else { return nil }
        let result = await session.drawImageResult(request, label: label, style: style, columns: columns, rows: rows)
        return BlogPicture(text: result.text, beside: result.drawn && style.drawing == .symbols)
    }

    /// The native file of `image` (a reference of the item on screen) drawn as `draw` does, its
    /// placeholder naming it as a `kind` (`logo`, `avatar`, `image`).
    @MainActor
    static func draw(
        native image: Asset, kind: String, columns: Int, rows: Int, in session: Session
    ) async -> BlogPicture? {
        await draw(
            DeliveryAPI.downloadNative(id: image.id), label: kind + " " + BlogScreen.named(image), columns: columns,
            rows: rows, in: session)
    }

    /// Lines the drawing takes.
    var rows: Int { text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } }

    /// `entry` to the right of this picture, or under it when text cannot go beside it;
    /// `centered` starts the text so that it sits at the drawing's middle.
    func compose(_ entry: String, centered: Bool = false) -> String {
        guard beside else { return text + entry }
        let entryRows = entry.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        let top = centered ? max(0, (rows - entryRows) / 2) : 0
        return TerminalImage.beside(text, text: String(repeating: "\n", count: top) + entry)
    }

    /// `entry` with `picture` (see `compose`), or `entry` alone when there is none.
    static func compose(_ picture: BlogPicture?, _ entry: String, centered: Bool = false) -> String {
        picture.map { $0.compose(entry, centered: centered) } ?? entry
    }
}
