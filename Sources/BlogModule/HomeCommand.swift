import DeliveryKit
import Foundation
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
            """
    ).planning(BlogPlans.home)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        try BlogArguments.none(statement)
        let channel = try BlogChannel(session)
        let home = try await channel.home()
        let topics = BlogScreen.references(home, "topics")
        session.lastRows = topics
        return .screen(screen(home, topics: topics), data: .item(home))
    }

    /// The home page as text.
    static func screen(_ home: Asset, topics: [Asset]) -> String {
        var out = (BlogScreen.string(home, "company_name") ?? BlogScreen.clean(home.name)) + "\n"
        if let logo = BlogScreen.reference(home, "company_logo") { out += "logo: " + BlogScreen.named(logo) + "\n" }
        out += "\nTopics\n"
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
        for (label, url) in links { out += label.padding(toLength: 12, withPad: " ", startingAt: 0) + url + "\n" }
        return out
    }
}
