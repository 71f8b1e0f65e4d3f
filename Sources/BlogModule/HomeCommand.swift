import DeliveryKit
import FoundationEssentials
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `home`: the blog's home page (§3.1), its topics numbered for `@n`.
package enum HomeCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "home", abstract: "the blog's home page: company, logo, links, and its topics numbered for @n",
        usage: "home", examples: ["home"],
        discussion: """
            Reads the one OCEGettingStartedHomePage item named HomePage, as Oracle's blog sample does
            at start. Its topics become rows @1, @2, ...: 'articles @2' lists the second topic's articles.
            On a terminal the logo is drawn beside the company name, as 'read' draws images ('set
            images' or --images picks how); otherwise it is named with its id.
            """
    ).planning(BlogPlans.home)

    /// The logo beside the company name, in cells at most.
    static let logoColumns = 32
    static let logoRows = 5

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        try BlogArguments.none(statement)
        let channel = try BlogChannel(session)
        let home = try await channel.home()
        let topics = BlogScreen.references(home, "topics")
        session.lastRows = topics
        var logo: BlogPicture?
        if let image = BlogScreen.reference(home, "company_logo") {
            logo = await BlogPicture.draw(
                native: image, kind: "logo", columns: logoColumns, rows: logoRows, in: session)
        }
        return .screen(
            screen(
                home, topics: topics, width: BlogScreen.width(session), logo: logo, styled: BlogScreen.styled(session)),
            data: .item(home))
    }

    /// The home page as text: the company name (bold on a terminal) beside the drawn `logo`, or
    /// with the logo named under it; the topics, numbered; the links.
    static func screen(
        _ home: Asset, topics: [Asset], width: Int = 80, logo: BlogPicture? = nil, styled: Bool = false
    ) -> String {
        let name = BlogScreen.string(home, "company_name") ?? BlogScreen.clean(home.name)
        var out = BlogScreen.style(name, .bold, when: styled) + "\n"
        if let logo {
            out = logo.compose(out, centered: true)
        } else if let image = BlogScreen.reference(home, "company_logo") {
            out += BlogScreen.style(BlogScreen.notDrawn("logo", image, width: width), .dim, when: styled)
        }
        out += "\n" + BlogScreen.style("Topics", .bold, when: styled) + "\n"
        if topics.isEmpty { out += "  (none)\n" }
        let numberWidth = String(topics.count).count
        for (index, topic) in topics.enumerated() {
            let number = String(index + 1)
            out +=
                String(repeating: " ", count: 2 + numberWidth - number.count) + number + "  "
                + BlogScreen.clean(topic.name) + "\n"
        }
        let links = [("About Us", "about_url"), ("Contact Us", "contact_url")].compactMap { label, field in
            BlogScreen.string(home, field).map { (label, $0) }
        }
        if !links.isEmpty { out += "\n" }
        for (label, url) in links {
            out += label + String(repeating: " ", count: max(1, 12 - label.count)) + url + "\n"
        }
        return out
    }
}
