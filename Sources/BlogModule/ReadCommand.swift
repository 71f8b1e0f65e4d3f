import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell
import TerminalMedia

/// `read ARTICLE`: one article as the sample's article page shows it (§3.4).
package enum ReadCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "read", abstract: "read an article: title, author, date, images, and the body as text",
        usage: "read @n|ID|TITLE",
        examples: ["read @1", "read CORE9CF5B65B3F04FD1C241C022BE22A2E02", "read \"The Cortado Guide\""],
        discussion: """
            Reads the article with its author expanded, as the sample's article page does, and prints
            the title, the author and date, and the body (HTML) as text wrapped to the terminal, at
            most 100 columns: headings, emphasis, lists, quotes, code, tables, and links as
            hyperlinks or numbered footnotes ('set html raw' shows the HTML as sent). On a terminal
            the author's avatar is drawn beside the byline and the hero image (image_16x9) under it,
            at most a third of the screen high ('set images' or --images picks how); otherwise the
            hero is named with its id. The rows of the last listing stay, so 'read @2' reads the
            next one.
            """
    ).planning(BlogPlans.read).completing([.name(ofType: BlogType.article)])

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard let written = try BlogTarget.parse(statement, in: session, what: "article") else {
            throw .usage("read takes an article: @n, an id or a title", span: nil)
        }
        let channel = try BlogChannel(session)
        let target = try await written.resolvingSlug(in: channel, what: "article")
        var id = target.text
        if !target.isID {
            let articles = try await channel.all(BlogType.article)
            if articles.isEmpty, !(await channel.isBlog()) { throw BlogChannel.notBlog }
            id = try target.match(in: articles, what: "article").id
        }
        let article: Asset
        do {
            article = try await channel.article(id)
        } catch {
            // The server refuses `expand=fields.author` on a type without that field: say what it is.
            guard case .delivery(.http(let http)) = error, http.status == 400 else { throw error }
            let item = try await channel.read(id)
            if item.type == BlogType.article { throw error }
            throw await BlogChannel.wrongType(item, expected: "an article", target: target, channel: channel)
        }
        guard article.type == BlogType.article else {
            throw await BlogChannel.wrongType(article, expected: "an article", target: target, channel: channel)
        }
        let width = BlogScreen.proseWidth(session)
        var images = Images()
        if let hero = BlogScreen.reference(article, "image_16x9") {
            // At most the prose's width and a third of the screen's height, so that the title and
            // the start of the text stay in view.
            let rows = min(max(1, session.output.height / 3), ReadCommand.maxHeroRows)
            images.hero = await BlogPicture.draw(native: hero, kind: "image", columns: width, rows: rows, in: session)
        }
        if let author = BlogScreen.reference(article, "author"), let avatar = BlogScreen.reference(author, "avatar") {
            images.avatar = await BlogPicture.draw(
                native: avatar, kind: "avatar", columns: ReadCommand.avatarColumns, rows: ReadCommand.avatarRows,
                in: session)
        }
        let options = session.richTextOptions(width: width)
        return .screen(
            screen(article, options: options, raw: session.settings.html == .raw, images: images), data: .item(article))
    }

    /// The avatar beside the byline, in cells (a square picture at 8 × 16 pixels a cell).
    static let avatarColumns = 8
    static let avatarRows = 4
    /// The most rows the hero takes when the screen's height is not known.
    static let maxHeroRows = 60

    /// The drawn hero image and avatar (or their placeholder lines); nil when not drawn.
    struct Images {
        var hero: BlogPicture?
        var avatar: BlogPicture?
    }

    /// The article page as text, `options.width` wide: the title (bold on a terminal), the byline
    /// (dim; beside the avatar when it is drawn), a blank line, the hero image and its caption,
    /// and the body rendered with `options` (or, `raw`, the HTML as sent, cleaned of control
    /// characters). A hero that is not drawn is named on one line; an avatar that is not drawn is
    /// left out (the byline names the author).
    static func screen(
        _ article: Asset, options: RichTextOptions, raw: Bool = false, images: Images = Images()
    )
        -> String
    {
        let width = options.width
        let styled = options.styles
        var out = BlogScreen.style(
            BlogScreen.wrapped(article.name, indent: 0, width: width), .bold, when: styled)
        let author = BlogScreen.reference(article, "author")
        let byline = [
            author.flatMap { $0.name.isEmpty ? nil : "by " + BlogScreen.clean($0.name) }, PostedDate.of(article),
        ].compactMap { $0 }.joined(separator: " · ")
        if !byline.isEmpty {
            let room = images.avatar?.beside == true ? max(width - ReadCommand.avatarColumns - 2, 20) : width
            let text = BlogScreen.style(BlogScreen.wrapped(byline, indent: 0, width: room), .dim, when: styled)
            if let avatar = images.avatar {
                out += "\n" + avatar.compose(text, centered: true)
            } else {
                out += text
            }
        }
        let hero = BlogScreen.reference(article, "image_16x9")
        let caption = BlogScreen.string(article, "image_caption")
        if hero != nil || caption != nil { out += "\n" }
        if let drawn = images.hero {
            out += drawn.text
        } else if let hero {
            out += BlogScreen.style(BlogScreen.notDrawn("image", hero, width: width), .dim, when: styled)
        }
        if let caption {
            out += BlogScreen.style(
                BlogScreen.wrapped(caption, indent: 0, width: width), [.dim, .italic], when: styled)
        }
        if let html = article.fields?["article_content"]?.stringValue {
            let body = raw ? TerminalText.cleanKeepingLines(html) + "\n" : RichText.render(html, options: options)
            if !body.isEmpty { out += "\n" + body }
        }
        return out
    }
}
