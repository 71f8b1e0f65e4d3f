// `topics --images` and `articles --images`: a thumbnail beside each row. Symbols drawings sit to
// the left of the row's text, line by line; sixel, kitty and iTerm2 images (which the text cannot
// flow beside without cursor movement) are drawn above their row; an image that fails is its
// placeholder line above the row. Off a terminal, or with images never, the rows are as without
// the flag.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell
import TerminalMedia

/// Thumbnails beside blog rows.
enum BlogThumbnails {
    static let flag = "--images"
    /// Cells one thumbnail takes at most.
    static let columns = 12
    static let rows = 6

    /// `statement` without its `--images` words, and whether it had one.
    static func takeFlag(_ statement: Statement) -> (statement: Statement, images: Bool) {
        guard case .command(var command) = statement else { return (statement, false) }
        let isFlag: (CommandArgument) -> Bool = {
            if case .word(let word) = $0.kind { return word == flag }
            return false
        }
        guard command.arguments.contains(where: isFlag) else { return (statement, false) }
        command.arguments.removeAll(where: isFlag)
        command.argumentText =
            command.argumentText.replacingAllBytes(of: flag, with: "")
            .trimmedSpaces
        return (.command(command), true)
    }

    /// One thumbnail per row (nil where the row has no image), or nil when nothing is drawn.
    @MainActor
    static func draw(_ requests: [(any DownloadRequest, String)?], in session: Session) async -> [BlogPicture?]? {
        guard session.imageStyle != nil else { return nil }
        var thumbnails: [BlogPicture?] = []
        for request in requests {
            guard let (request, label) = request else {
                thumbnails.append(nil)
                continue
            }
            thumbnails.append(await BlogPicture.draw(request, label: label, columns: columns, rows: rows, in: session))
        }
        return thumbnails
    }

    /// Columns left for a row's text beside a thumbnail.
    static func textWidth(_ width: Int, thumbnails: [BlogPicture?]?) -> Int {
        guard let thumbnails, thumbnails.contains(where: { $0?.beside == true }) else { return width }
        return max(width - columns - 2, 30)
    }
}
