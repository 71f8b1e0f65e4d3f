import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `articles TOPIC`: a topic's articles, newest first (§3.3), numbered for `read @n`.
package enum ArticlesCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "articles", abstract: "a topic's articles, newest first, numbered for 'read @n'",
        usage: "articles @n|ID|TOPIC-NAME [--images]",
        examples: [
            "articles @2", "articles \"Espresso & Milk\"", "articles recipes", "articles $topic",
            "articles @2 --images",
        ],
        discussion: """
            TOPIC is a row of 'home' or 'topics', a topic's id, or its name (any case; a unique part of
            a name will do). Shows at most the 50 newest articles, as the sample's article list does:
            title, author, posted date and description. --images draws each article's thumbnail beside
            it, on a terminal.
            """
    ).planning(BlogPlans.articles).completing([.name(ofType: BlogType.topic)])

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let (statement, images) = BlogThumbnails.takeFlag(statement)
        guard let written = try BlogTarget.parse(statement, in: session, what: "topic") else {
            throw .usage("articles takes a topic: @n, an id or a name", span: nil)
        }
        let channel = try BlogChannel(session)
        let target = try await written.resolvingSlug(in: channel, what: "topic")
        let topic = try await resolveTopic(target, channel: channel)
        let page = try await channel.articles(where: "topic", is: topic.id)
        session.lastRows = page.items
        var thumbnails: [BlogPicture?]?
        if images {
            thumbnails = await BlogThumbnails.draw(
                page.items.map { article in
                    BlogScreen.reference(article, "image").map {
                        (
                            BlogPlans.articleThumbnail($0.id),
                            "thumbnail " + BlogScreen.named($0)
                        )
                    }
                }, in: session)
        }
        return .screen(
            screen(topic: topic, page: page, width: BlogScreen.width(session), thumbnails: thumbnails),
            data: .items(
                Listing(
                    items: page.items, totalResults: page.totalResults, hasMore: page.hasMore,
                    columns: ["id", "name", "fields.author", "fields.published_date", "description"].map {
                        ListingColumn(field: $0)
                    })))
    }

    /// The topic `target` names: read by id (and checked to be a topic), else found by name.
    static func resolveTopic(_ target: BlogTarget, channel: BlogChannel) async throws(ShellError) -> Asset {
        if target.isID {
            let item = try await channel.read(target.text)
            guard item.type == BlogType.topic else {
                throw await BlogChannel.wrongType(item, expected: "a topic", target: target, channel: channel)
            }
            return item
        }
        let topics = try await channel.all(BlogType.topic)
        if topics.isEmpty, !(await channel.isBlog()) { throw BlogChannel.notBlog }
        return try target.match(in: topics, what: "topic")
    }

    /// The article list as text.
    static func screen(
        topic: Asset, page: Page<Asset>, width: Int, thumbnails: [BlogPicture?]? = nil
    ) -> String {
        let name = BlogScreen.clean(topic.name)
        guard !page.items.isEmpty else { return "\(name) has no articles.\n" }
        let total = page.totalResults ?? page.items.count
        var out = "\(name): " + BlogScreen.count(total, "article")
        out += total > page.items.count ? ", the \(page.items.count) newest\n\n" : ", newest first\n\n"
        out += BlogScreen.articleEntries(page.items, width: width, thumbnails: thumbnails) { article in
            BlogScreen.reference(article, "author").map { BlogScreen.clean($0.name) }
        }
        return out
    }
}
