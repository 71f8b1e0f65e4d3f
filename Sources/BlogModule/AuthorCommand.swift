import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `author [AUTHOR]`: an author, their avatar and their articles; without an argument, the authors.
package enum AuthorCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "author", abstract: "an author with their avatar and articles (numbered for 'read @n'); or all authors",
        usage: "author [@n|ID|NAME]",
        examples: ["author", "author Priya", "author @1", "author COREAE3B9CE81F37BFC43211BFD542B4F9CB"],
        discussion: """
            Without an argument, lists the authors by name, numbered for 'author @n'. With one, reads
            the author and lists their articles newest first (at most 50), numbered for 'read @n'.
            NAME matches in any case; a unique part of a name will do. On a terminal the avatar is
            drawn beside the name, as 'read' draws images ('set images' or --images picks how);
            otherwise it is named with its id.
            """
    ).planning(BlogPlans.author).completing([.name(ofType: BlogType.author)])

    /// The avatar beside the author's name and description, in cells (a square picture).
    static let avatarColumns = 16
    static let avatarRows = 8

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let target = try BlogTarget.parse(statement, in: session, what: "author")
        let channel = try BlogChannel(session)
        guard let target else {
            let authors = try await channel.all(BlogType.author)
            if authors.isEmpty, !(await channel.isBlog()) { throw BlogChannel.notBlog }
            session.lastRows = authors
            // Every row is an author: no type column.
            let columns = ["id", "name", "description"].map { ListingColumn(field: $0) }
            return .screen(
                index(authors, width: BlogScreen.width(session)),
                data: .items(Listing(items: authors, columns: columns)))
        }
        let named = try await target.resolvingSlug(in: channel, what: "author")
        var id = named.text
        if !named.isID {
            let authors = try await channel.all(BlogType.author)
            if authors.isEmpty, !(await channel.isBlog()) { throw BlogChannel.notBlog }
            id = try target.match(in: authors, what: "author").id
        }
        let author = try await channel.read(id)
        guard author.type == BlogType.author else {
            throw await BlogChannel.wrongType(author, expected: "an author", target: target, channel: channel)
        }
        let page = try await channel.articles(where: "author", is: author.id)
        session.lastRows = page.items
        var avatar: BlogPicture?
        if let image = BlogScreen.reference(author, "avatar") {
            avatar = await BlogPicture.draw(
                native: image, kind: "avatar", columns: avatarColumns, rows: avatarRows, in: session)
        }
        return .screen(
            screen(
                author, page: page, width: BlogScreen.width(session), avatar: avatar,
                styled: BlogScreen.styled(session)),
            data: .items(Listing(items: page.items, totalResults: page.totalResults, hasMore: page.hasMore)))
    }

    /// The authors, numbered, with their descriptions.
    static func index(_ authors: [Asset], width: Int) -> String {
        let numberWidth = String(authors.count).count
        var out = ""
        for (index, author) in authors.enumerated() {
            let number = String(index + 1)
            out += (index == 0 ? "" : "\n") + String(repeating: " ", count: numberWidth - number.count) + number
            out += "  " + BlogScreen.clean(author.name) + "\n"
            if !author.description.isEmpty {
                out += BlogScreen.wrapped(author.description, indent: numberWidth + 2, width: width)
            }
        }
        return out
    }

    /// The author page as text: the name (bold on a terminal) and description beside the drawn
    /// `avatar`, or with the avatar named under them; then the articles, numbered.
    static func screen(
        _ author: Asset, page: Page<Asset>, width: Int, avatar: BlogPicture? = nil, styled: Bool = false
    ) -> String {
        var out = BlogScreen.style(BlogScreen.clean(author.name), .bold, when: styled) + "\n"
        let room = avatar?.beside == true ? max(width - avatarColumns - 2, 30) : width
        if !author.description.isEmpty { out += BlogScreen.wrapped(author.description, indent: 0, width: room) }
        if let avatar {
            out = avatar.compose(out, centered: true)
        } else if let image = BlogScreen.reference(author, "avatar") {
            out += BlogScreen.style(BlogScreen.notDrawn("avatar", image, width: width), .dim, when: styled)
        }
        guard !page.items.isEmpty else { return out + "\nNo articles.\n" }
        let total = page.totalResults ?? page.items.count
        out += "\n" + BlogScreen.count(total, "article")
        out += total > page.items.count ? ", the \(page.items.count) newest\n\n" : ", newest first\n\n"
        out += BlogScreen.articleEntries(page.items, width: width) { article in
            BlogScreen.reference(article, "topic").map { BlogScreen.clean($0.name) }
        }
        return out
    }
}
