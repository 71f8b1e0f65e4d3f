import DeliveryKit
import OCEQLanguage
import OCEQShell

/// `read ARTICLE`: one article as the sample's article page shows it (§3.4).
public enum ReadCommand: Command {
    public static let descriptor = CommandDescriptor(
        name: "read", abstract: "read an article: title, author, date, images, and the body as text",
        usage: "read @n|ID|TITLE",
        examples: ["read @1", "read CORE9CF5B65B3F04FD1C241C022BE22A2E02", "read \"The Cortado Guide\""],
        discussion: """
            Reads the article with its author expanded, as the sample's article page does, and prints
            the body as text wrapped to the terminal. The hero image (image_16x9) and the author's
            avatar are named with their ids ('get ID' shows them). The rows of the last listing stay,
            so 'read @2' reads the next one.
            """)

    public static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        guard let target = try BlogTarget.parse(statement, in: session, what: "article") else {
            throw .usage("read takes an article: @n, an id or a title", span: nil)
        }
        let channel = try BlogChannel(session)
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
        if BlogScreen.wantsData(session) { return .item(article) }
        return .text(screen(article, width: BlogScreen.width(session)))
    }

    /// The article page as text.
    static func screen(_ article: Asset, width: Int) -> String {
        var out = BlogScreen.clean(article.name) + "\n"
        let author = BlogScreen.reference(article, "author")
        if let author, !author.name.isEmpty { out += "by " + BlogScreen.clean(author.name) + "\n" }
        if let posted = PostedDate.of(article) { out += "Posted on " + posted + "\n" }
        let hero = BlogScreen.reference(article, "image_16x9")
        let caption = BlogScreen.string(article, "image_caption")
        if hero != nil || caption != nil { out += "\n" }
        if let hero { out += "[image: " + BlogScreen.named(hero) + "]\n" }
        if let caption { out += BlogScreen.wrapped(caption, indent: 0, width: width) }
        if let html = article.fields?["article_content"]?.stringValue {
            let body = HTMLText.render(html, width: width)
            if !body.isEmpty { out += "\n" + body }
        }
        if let author {
            out += "\n" + "author: " + BlogScreen.named(author) + "\n"
            if let avatar = BlogScreen.reference(author, "avatar") {
                out += "avatar: " + BlogScreen.named(avatar) + "\n"
            }
        }
        return out
    }
}
