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
            the body (HTML) as text wrapped to the terminal: headings, emphasis, lists, quotes, code,
            tables, and links as hyperlinks or numbered footnotes ('set html raw' shows the HTML as
            sent). On a terminal the hero image (image_16x9) and the author's avatar are drawn
            ('set images' or --images picks how); otherwise they are named with their ids. The rows
            of the last listing stay, so 'read @2' reads the next one.
            """
    ).completing([.name(ofType: BlogType.article)])

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
        let width = BlogScreen.width(session)
        var images = Images()
        if let style = session.imageStyle {
            if let hero = BlogScreen.reference(article, "image_16x9") {
                images.hero = await session.drawImage(
                    DeliveryAPI.downloadNative(id: hero.id), label: "image " + BlogScreen.named(hero), style: style,
                    columns: min(width, 100), rows: 24)
            }
            if let author = BlogScreen.reference(article, "author"),
                let avatar = BlogScreen.reference(author, "avatar")
            {
                images.avatar = await session.drawImage(
                    DeliveryAPI.downloadNative(id: avatar.id), label: "avatar " + BlogScreen.named(avatar),
                    style: style, columns: 16, rows: 8)
            }
        }
        let options = session.richTextOptions(width: width)
        return .screen(
            screen(article, options: options, raw: session.settings.html == .raw, images: images), data: .item(article))
    }

    /// The drawn hero image and avatar (or their placeholder lines); nil when not drawn.
    struct Images {
        var hero: String?
        var avatar: String?
    }

    /// The article page as text: the body rendered with `options` (or, `raw`, the HTML as sent,
    /// cleaned of control characters), images drawn where `images` has them.
    static func screen(
        _ article: Asset, options: RichTextOptions, raw: Bool = false, images: Images = Images()
    )
        -> String
    {
        let width = options.width
        var out = BlogScreen.clean(article.name) + "\n"
        let author = BlogScreen.reference(article, "author")
        if let author, !author.name.isEmpty { out += "by " + BlogScreen.clean(author.name) + "\n" }
        if let posted = PostedDate.of(article) { out += "Posted on " + posted + "\n" }
        let hero = BlogScreen.reference(article, "image_16x9")
        let caption = BlogScreen.string(article, "image_caption")
        if hero != nil || caption != nil { out += "\n" }
        if let drawn = images.hero {
            out += drawn
        } else if let hero {
            out += "[image: " + BlogScreen.named(hero) + "]\n"
        }
        if let caption { out += BlogScreen.wrapped(caption, indent: 0, width: width) }
        if let html = article.fields?["article_content"]?.stringValue {
            let body = raw ? TerminalText.cleanKeepingLines(html) + "\n" : RichText.render(html, options: options)
            if !body.isEmpty { out += "\n" + body }
        }
        if let author {
            out += "\n" + "author: " + BlogScreen.named(author) + "\n"
            if let avatar = BlogScreen.reference(author, "avatar") {
                out += "avatar: " + BlogScreen.named(avatar) + "\n"
            }
            if let drawn = images.avatar { out += drawn }
        }
        return out
    }
}
