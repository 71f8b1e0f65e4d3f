// The requests of the blog sample's flows, exactly as `reference/blog-sample.md` §3 writes them
// (with `fields=all` where field values are needed from a search), and the one error a channel
// without the blog's content model gives.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQShell

/// The blog sample's content model.
enum BlogType {
    static let home = "OCEGettingStartedHomePage"
    static let topic = "OCEGettingStartedTopic"
    static let article = "OCEGettingStartedArticle"
    static let author = "OCEGettingStartedAuthor"
}

/// The blog requests over one connection.
struct BlogChannel: Sendable {
    /// The client of the session's connection.
    let client: DeliveryClient

    /// The most articles a listing shows (the sample reads one page of 50).
    static let articleLimit = 50

    /// The channel of `session`, or `notConnected`.
    @MainActor
    init(_ session: Session) throws(ShellError) {
        client = try session.requireConnection().client
    }

    /// What a channel without the blog types says.
    static let notBlog = ShellError.usage(
        "this channel has no blog: no \(BlogType.home) item named HomePage (the blog commands need the "
            + "content model of Oracle's blog sample)", span: nil)

    /// §3.1: the home item (`fields=all`, the first of at most one); `notBlog` when there is none.
    /// OCM answers a search naming a type the channel lacks with 400 ("Type with name X is not found")
    /// where `oceq serve` of an old export may answer an empty page: both mean there is no blog.
    func home() async throws(ShellError) -> Asset {
        let page: Page<Asset>
        do {
            page = try await fetch(BlogChannel.homeRequest)
        } catch {
            if BlogChannel.isUnknownType(error) { throw BlogChannel.notBlog }
            throw error
        }
        guard let home = page.items.first else { throw BlogChannel.notBlog }
        return home
    }

    /// Whether `error` is the channel's 400 for a search on a type it does not have (OCM says
    /// "Type with name X is not found"; the blog's own queries are otherwise well formed).
    static func isUnknownType(_ error: ShellError) -> Bool {
        guard case .delivery(.http(let http)) = error, http.status == 400 else { return false }
        return true
    }

    /// The request of `home()`.
    static var homeRequest: ListAssets {
        DeliveryAPI.listAssets().fields(.all).limit(1).starting(at: 0).totalResults(true)
            .query(rawText: "type eq \"\(BlogType.home)\" and name eq \"HomePage\"")
    }

    /// §3.2 step 4: an item read whole (`expand=all`, the SDK's default).
    func read(_ id: String) async throws(ShellError) -> Asset {
        try await fetch(DeliveryAPI.readAsset(id: id))
    }

    /// §3.4: an article with its author expanded.
    func article(_ id: String) async throws(ShellError) -> Asset {
        try await fetch(BlogChannel.articleRequest(id))
    }

    /// The request of `article(_:)`.
    static func articleRequest(_ id: String) -> ReadAsset { DeliveryAPI.readAsset(id: id).expand("fields.author") }

    /// §3.3 (plus `fields=all`): the newest articles whose reference `field` (`topic`, `author`) is `id`.
    func articles(where field: String, is id: String) async throws(ShellError) -> Page<Asset> {
        try await fetch(articlesRequest(field, id))
    }

    /// The request of `articles(where:is:)`.
    func articlesRequest(_ field: String, _ id: String) -> ListAssets {
        articleQuery(field, id).limit(BlogChannel.articleLimit).fields(.all)
    }

    /// The request of `articleCount(where:is:)`.
    func articleCountRequest(_ field: String, _ id: String) -> ListAssets { articleQuery(field, id).limit(1) }

    /// The number of articles whose `field` is `id` (the API's `totalResults`).
    func articleCount(where field: String, is id: String) async throws(ShellError) -> Int {
        let page = try await fetch(articleCountRequest(field, id))
        return page.totalResults ?? page.count
    }

    /// The articles whose `field` is `id`, newest first (the sample's search).
    func articleQuery(_ field: String, _ id: String) -> ListAssets {
        DeliveryAPI.listAssets().starting(at: 0)
            .order(.field("fields.published_date", .desc)).totalResults(true)
            .query(rawText: "type eq \"\(BlogType.article)\" and fields.\(field) eq \"\(BlogChannel.quoted(id))\"")
    }

    /// Every item of `type`, by name (for name look-ups and the author index).
    func all(_ type: String) async throws(ShellError) -> [Asset] {
        do {
            return try await fetch(BlogChannel.allRequest(type)).items
        } catch {
            // OCM's 400 for a type the channel lacks: no items of it (the caller then asks `isBlog`).
            if BlogChannel.isUnknownType(error) { return [] }
            throw error
        }
    }

    /// The request of `all(_:)`.
    static func allRequest(_ type: String) -> ListAssets {
        DeliveryAPI.listAssets().limit(DeliveryAPI.maximumLimit).starting(at: 0).totalResults(true)
            .order(.name()).query(rawText: "type eq \"\(type)\"")
    }

    /// True when the channel has the blog's home page.
    func isBlog() async -> Bool {
        do {
            _ = try await home()
            return true
        } catch {
            return false
        }
    }

    /// `text` with `"` and `\` escaped for a `q` string.
    static func quoted(_ text: String) -> String {
        text.replacingAllBytes(of: "\\", with: "\\\\").replacingAllBytes(of: "\"", with: "\\\"")
    }

    /// Sends `request`; a failure becomes the shell's error.
    func fetch<R: DeliveryRequest>(_ request: R) async throws(ShellError) -> R.Response {
        do {
            return try await client.fetch(request)
        } catch {
            throw .delivery(error)
        }
    }
}

extension BlogChannel {
    /// The error for `item` not being the `expected` blog type: `notBlog` on a channel without the
    /// blog, else one naming what the item is.
    static func wrongType(
        _ item: Asset, expected: String, target: BlogTarget, channel: BlogChannel
    ) async -> ShellError {
        if !(await channel.isBlog()) { return BlogChannel.notBlog }
        let name = BlogScreen.clean(item.name.isEmpty ? item.id : item.name)
        let what = item.type.isEmpty ? "not a blog item" : "of type " + BlogScreen.clean(item.type)
        return .usage("'\(name)' is \(what), not \(expected)", span: target.span)
    }
}
