// What the blog commands send, for `explain`: the requests of `BlogChannel` (the ones the commands
// run with) in the order the commands send them. An id only an earlier answer gives is written
// `{name}` (`PlanValue`); images are planned only where the command would draw them.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// The planners of the blog commands.
@MainActor
enum BlogPlans {
    /// `home`: the home item.
    static func home(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        try BlogArguments.none(statement)
        let home = PlannedRequest("the home page (\(BlogType.home) named HomePage)", BlogChannel.homeRequest)
        return withPictures([home], [picture("the company logo", "logo.id", "when the home page has one")], in: session)
    }

    /// `topics [--images]`: the home item, then each topic and its article count.
    static func topics(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let (statement, images) = BlogThumbnails.takeFlag(statement)
        try BlogArguments.none(statement)
        let channel = try BlogChannel(session)
        let topic = PlanValue.fromAnswer("topic.id")
        let requests = [
            PlannedRequest("the home page, for its topics", BlogChannel.homeRequest),
            PlannedRequest("the topic read whole", DeliveryAPI.readAsset(id: topic), repeats: "for each topic"),
            PlannedRequest(
                "the number of the topic's articles", channel.articleCountRequest("topic", topic),
                repeats: "for each topic"),
        ]
        guard images else { return .requests(requests) }
        let thumbnail = PlannedRequest(
            "the topic's thumbnail", download: topicThumbnail(PlanValue.fromAnswer("thumbnail.id")),
            repeats: "for each topic with a thumbnail")
        return withPictures(requests, [thumbnail], in: session)
    }

    /// `articles TOPIC [--images]`: the topic (by id or among all topics), then its articles.
    static func articles(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let (statement, images) = BlogThumbnails.takeFlag(statement)
        guard let written = try BlogTarget.parse(statement, in: session, what: "topic") else {
            throw .usage("articles takes a topic: @n, an id or a name", span: nil)
        }
        let channel = try BlogChannel(session)
        var requests: [PlannedRequest] = []
        let (id, named) = target(written, what: "topic", type: BlogType.topic, into: &requests)
        if !named { requests.append(PlannedRequest("the topic read whole", DeliveryAPI.readAsset(id: id))) }
        requests.append(PlannedRequest("the topic's articles, newest first", channel.articlesRequest("topic", id)))
        guard images else { return .requests(requests) }
        let thumbnail = PlannedRequest(
            "the article's thumbnail", download: articleThumbnail(PlanValue.fromAnswer("image.id")),
            repeats: "for each article with an image")
        return withPictures(requests, [thumbnail], in: session)
    }

    /// `read ARTICLE`: the article (found among all articles when named), its hero image and the
    /// author's avatar where they are drawn.
    static func read(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        guard let written = try BlogTarget.parse(statement, in: session, what: "article") else {
            throw .usage("read takes an article: @n, an id or a title", span: nil)
        }
        var requests: [PlannedRequest] = []
        let id = target(written, what: "article", type: BlogType.article, into: &requests).id
        requests.append(PlannedRequest("the article, its author expanded", BlogChannel.articleRequest(id)))
        return withPictures(
            requests,
            [
                picture("the hero image, image_16x9", "hero.id", "when the article has one"),
                picture("the author's avatar", "avatar.id", "when the author has one"),
            ], in: session)
    }

    /// `author [AUTHOR]`: every author; or the author, then their articles.
    static func author(_ statement: Statement, in session: Session) throws(ShellError) -> CommandPlan {
        let written = try BlogTarget.parse(statement, in: session, what: "author")
        let channel = try BlogChannel(session)
        guard let written else {
            return .requests([PlannedRequest("every author, by name", BlogChannel.allRequest(BlogType.author))])
        }
        var requests: [PlannedRequest] = []
        let id = target(written, what: "author", type: BlogType.author, into: &requests).id
        requests.append(PlannedRequest("the author read whole", DeliveryAPI.readAsset(id: id)))
        requests.append(PlannedRequest("the author's articles, newest first", channel.articlesRequest("author", id)))
        return withPictures(
            requests, [picture("the author's avatar", "avatar.id", "when the author has one")], in: session)
    }

    /// The requests that find the id `written` names, appended to `requests`: a slug is read for
    /// its id; a name is looked for among every item of `type`. Returns the id (or the placeholder
    /// for it) and whether it was found by name.
    static func target(
        _ written: BlogTarget, what: String, type: String, into requests: inout [PlannedRequest]
    ) -> (id: String, named: Bool) {
        var id = written.text
        var isID = written.isID
        if case .slug(let slug) = ReadTarget(reference: written.text) {
            requests.append(PlannedRequest("the item with that slug, for its id", DeliveryAPI.readAsset(slug: slug)))
            id = PlanValue.fromAnswer(what + ".id")
            isID = true
        }
        if !isID {
            requests.append(
                PlannedRequest(
                    "every \(what), to find the one named '\(written.text)'", BlogChannel.allRequest(type)))
            return (PlanValue.fromAnswer(what + ".id"), true)
        }
        return (id, false)
    }

    /// The request of a topic's thumbnail (`topics --images`).
    static func topicThumbnail(_ id: String) -> DownloadRendition {
        DeliveryAPI.downloadRendition(id: id, renditionName: "Medium", format: "jpg")
    }

    /// The request of an article's thumbnail (`articles --images`).
    static func articleThumbnail(_ id: String) -> DownloadThumbnail {
        DeliveryAPI.downloadThumbnail(id: id, fileGroup: "Images")
    }

    /// `requests`, then `pictures` where this session draws images; else the note that none is fetched.
    static func withPictures(
        _ requests: [PlannedRequest], _ pictures: [PlannedRequest], in session: Session
    ) -> CommandPlan {
        guard session.imageStyle != nil else { return .requests(requests, notes: [imagesNotDrawn]) }
        return .requests(requests + pictures)
    }

    /// The native file of a picture whose id only an earlier answer gives (`placeholder`, e.g. `hero.id`).
    static func picture(_ purpose: String, _ placeholder: String, _ repeats: String) -> PlannedRequest {
        PlannedRequest(
            purpose, download: DeliveryAPI.downloadNative(id: PlanValue.fromAnswer(placeholder)), repeats: repeats)
    }

    /// Why no image is fetched where images are not drawn.
    static let imagesNotDrawn =
        "images are not drawn here (not a terminal, or 'set images never'), so none is fetched"
}
