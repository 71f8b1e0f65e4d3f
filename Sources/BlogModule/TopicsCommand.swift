import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `topics`: each topic of the home page, re-read for its description (§3.2), with its number of
/// articles.
package enum TopicsCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "topics", abstract: "the blog's topics with their descriptions and article counts, numbered for @n",
        usage: "topics [--images]", examples: ["topics", "topics --images"],
        discussion: """
            The topics of the home page in its order (so @n is the same topic after 'home' and after
            'topics'), each read whole as the sample's topic cards do, with the number of its articles.
            --images draws each topic's thumbnail (its Medium rendition) beside it, on a terminal.
            """
    ).planning(BlogPlans.topics)

    /// One topic card.
    struct Card: Sendable {
        var topic: Asset
        var articles: Int
    }

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let (statement, images) = BlogThumbnails.takeFlag(statement)
        try BlogArguments.none(statement)
        let channel = try BlogChannel(session)
        let home = try await channel.home()
        let cards = try await cards(BlogScreen.references(home, "topics"), channel: channel)
        session.lastRows = cards.map(\.topic)
        var thumbnails: [BlogPicture?]?
        if images {
            thumbnails = await BlogThumbnails.draw(
                cards.map { card in
                    BlogScreen.reference(card.topic, "thumbnail").map {
                        (
                            BlogPlans.topicThumbnail($0.id),
                            "thumbnail " + BlogScreen.named($0)
                        )
                    }
                }, in: session)
        }
        return .screen(
            screen(cards, width: BlogScreen.width(session), thumbnails: thumbnails), data: .table(table(cards)))
    }

    /// The cards as data, what json, ndjson and csv show: each topic's id, name, article count
    /// and description.
    static func table(_ cards: [Card]) -> Table {
        Table(
            columns: ["id", "name", "articles", "description"],
            rows: cards.map { [$0.topic.id, $0.topic.name, String($0.articles), $0.topic.description] },
            records: cards.map { card in
                [
                    "id": .string(card.topic.id), "name": .string(card.topic.name), "articles": .int(card.articles),
                    "description": .string(card.topic.description),
                ]
            })
    }

    /// Each topic read and counted, in parallel, in the order given.
    static func cards(_ topics: [Asset], channel: BlogChannel) async throws(ShellError) -> [Card] {
        let results = await withTaskGroup(of: (Int, Result<Card, ShellError>).self) { group in
            for (index, stub) in topics.enumerated() {
                group.addTask { (index, await card(stub, channel: channel)) }
            }
            var results: [(Int, Result<Card, ShellError>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var cards: [Card] = []
        for result in results { cards.append(try result.get()) }
        return cards
    }

    /// One topic read and counted. As the sample's cards do, a topic that cannot be found keeps its
    /// name from the home page.
    static func card(_ stub: Asset, channel: BlogChannel) async -> Result<Card, ShellError> {
        var topic = stub
        do {
            topic = try await channel.read(stub.id)
        } catch {
            guard case .delivery(.http(let http)) = error, http.status == 404 else { return .failure(error) }
        }
        do {
            return .success(Card(topic: topic, articles: try await channel.articleCount(where: "topic", is: stub.id)))
        } catch {
            return .failure(error)
        }
    }

    /// The topic cards as text.
    static func screen(_ cards: [Card], width: Int, thumbnails: [BlogPicture?]? = nil) -> String {
        if cards.isEmpty { return "The home page lists no topics.\n" }
        let numberWidth = String(cards.count).count
        let textWidth = BlogThumbnails.textWidth(width, thumbnails: thumbnails)
        var out = ""
        for (index, card) in cards.enumerated() {
            let number = String(index + 1)
            var entry = String(repeating: " ", count: numberWidth - number.count) + number
            entry +=
                "  " + BlogScreen.clean(card.topic.name) + " (" + BlogScreen.count(card.articles, "article") + ")\n"
            if !card.topic.description.isEmpty {
                entry += BlogScreen.wrapped(card.topic.description, indent: numberWidth + 2, width: textWidth)
            }
            let thumbnail = thumbnails.flatMap { index < $0.count ? $0[index] : nil }
            out += (index == 0 ? "" : "\n") + BlogPicture.compose(thumbnail, entry)
        }
        return out
    }
}
