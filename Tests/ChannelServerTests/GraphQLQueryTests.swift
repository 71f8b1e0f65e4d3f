import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Issue 19: the reference's example queries (ocm-delivery-extras.md §1.4) against the sample
/// channel and the real 2021 export, each answer checked against REST's for the same items.
@Suite("GraphQL answers what REST answers", .serialized)
struct GraphQLQueryTests {
    static let imageFragment = """
        fragment sectionImages on image {
          id
          fields {
            file { url metadata { width height } }
            renditions { name format file { url metadata { height width } } }
          }
        }
        """

    @Test("getItems lists the same items as GET /items, and a type filter counts as q does")
    func getItemsMatchesREST() async throws {
        for channel in [try TestChannel(paths: [SampleChannelTests.sampleFolder]), try TestChannel()] {
            let answer = try await channel.graphQL(
                "{ getItems(channelToken: \"\(TestChannel.token)\") { items { id name type } } }",
                target: TestChannel.graphQLPath)
            #expect(answer.status == 200)
            #expect(answer.errors.isEmpty, "\(answer.messages)")
            let rest = try await channel.json("/items")
            let graph = answer.data?["getItems"]?["items"]?.arrayValue ?? []
            let restItems = rest["items"]?.arrayValue ?? []
            #expect(!graph.isEmpty)
            #expect(graph.map { $0["id"] } == restItems.map { $0["id"] })
            #expect(graph.map { $0["name"] } == restItems.map { $0["name"] })
            #expect(graph.map { $0["type"] } == restItems.map { $0["type"] })

            let type = try #require(restItems.last?["type"]?.stringValue)
            let filtered = try await channel.graphQL(
                "{ getItems(filter: {type: {op: EQUALS, value: \"\(type)\"}}) { totalResults items { id } } }")
            let query = "type eq \"\(type)\"".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let restFiltered = try await channel.json("/items?q=\(query)&totalResults=true")
            #expect(filtered.data?["getItems"]?["totalResults"] == restFiltered["totalResults"])
            #expect(
                filtered.data?["getItems"]?["items"]?.arrayValue?.map { $0["id"] }
                    == restFiltered["items"]?.arrayValue?.map { $0["id"] })
        }
    }

    @Test("getItem by id, by slug and with variables answers the item's REST name, slug and description")
    func getItemMatchesREST() async throws {
        for channel in [try TestChannel(paths: [SampleChannelTests.sampleFolder]), try TestChannel()] {
            let list = try await channel.json("/items?q=typeCategory%20eq%20%22ContentType%22&limit=5")
            for summary in list["items"]?.arrayValue ?? [] {
                let id = try #require(summary["id"]?.stringValue)
                let rest = try await channel.json("/items/\(id)")
                let byId = try await channel.graphQL(
                    "{ getItem(id: \"\(id)\", channelToken: \"\(TestChannel.token)\") { id name slug description } }",
                    target: TestChannel.graphQLPath)
                let item = byId.data?["getItem"]
                #expect(item?["id"] == rest["id"])
                #expect(item?["name"] == rest["name"])
                #expect(item?["slug"] == rest["slug"])
                #expect(item?["description"] == rest["description"])
                let withVariables = try await channel.graphQL(
                    "query ($itemId: ID, $channelToken: String) { getItem(id: $itemId, channelToken: $channelToken) { slug } }",
                    variables: ["itemId": .string(id), "channelToken": .string(TestChannel.token)],
                    target: TestChannel.graphQLPath)
                #expect(withVariables.data?["getItem"]?["slug"] == rest["slug"])
                let slug = try #require(rest["slug"]?.stringValue)
                let bySlug = try await channel.graphQL("{ getItem(slug: \"\(slug)\") { id __typename } }")
                #expect(bySlug.data?["getItem"]?["id"] == rest["id"])
            }
        }
    }

    @Test("the People-page shape over the sample: two levels of references, flat renditions whose URLs answer")
    func peoplePageShape() async throws {
        let channel = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let list = try await channel.json("/items?q=type%20eq%20%22OCEGettingStartedArticle%22&limit=3")
        for summary in list["items"]?.arrayValue ?? [] {
            let rest = try await channel.json("/items/\(summary["id"]!.stringValue!)")
            let slug = try #require(rest["slug"]?.stringValue)
            let query = """
                query ($slug: String!, $channelToken: String!) {
                  getOCEGettingStartedArticle(slug: $slug, channelToken: $channelToken) {
                    id slug name
                    fields {
                      articleContent
                      publishedDate { value timezone }
                      author { id name fields { avatar { ...sectionImages } } }
                      image { ...sectionImages }
                    }
                  }
                }
                """ + Self.imageFragment
            let answer = try await channel.graphQL(
                query, variables: ["slug": .string(slug), "channelToken": .string(TestChannel.token)])
            #expect(answer.errors.isEmpty, "\(answer.messages)")
            let article = try #require(answer.data?["getOCEGettingStartedArticle"])
            #expect(article["id"] == rest["id"])
            #expect(article["name"] == rest["name"])
            #expect(article["fields"]?["articleContent"] == rest["fields"]?["article_content"])
            #expect(article["fields"]?["publishedDate"]?["value"] == rest["fields"]?["published_date"]?["value"])
            let authorId = try #require(rest["fields"]?["author"]?["id"]?.stringValue)
            #expect(article["fields"]?["author"]?["id"]?.stringValue == authorId)
            let author = try await channel.json("/items/\(authorId)")
            #expect(article["fields"]?["author"]?["name"] == author["name"])
            let avatarId = try #require(author["fields"]?["avatar"]?["id"]?.stringValue)
            let avatar = try #require(article["fields"]?["author"]?["fields"]?["avatar"])
            #expect(avatar["id"]?.stringValue == avatarId)
            let restAvatar = try await channel.json("/items/\(avatarId)")
            #expect(
                avatar["fields"]?["file"]?["metadata"]?["width"]?.intValue
                    == Int(restAvatar["fields"]?["metadata"]?["width"]?.stringValue ?? ""))
            let renditions = avatar["fields"]?["renditions"]?.arrayValue ?? []
            let restCount = (restAvatar["fields"]?["renditions"]?.arrayValue ?? []).reduce(0) {
                $0 + ($1["formats"]?.arrayValue?.count ?? 0)
            }
            #expect(renditions.count == restCount)
            #expect(renditions.count > 0)
            let jpg = try #require(renditions.first { $0["format"] == "jpg" && $0["name"] == "Thumbnail" })
            let url = try #require(jpg["file"]?["url"]?.stringValue)
            let image = try await CatalogTests.follow(url, channel)
            #expect(image.status == 200)
            #expect(image.headers["content-type"]?.hasPrefix("image/jpeg") == true)
            let native = try #require(avatar["fields"]?["file"]?["url"]?.stringValue)
            #expect(try await CatalogTests.follow(native, channel).status == 200)
        }
    }

    @Test("the 2021 export: Starter-Blog-Post as starterBlogPost, its fields camel-cased, references through fragments")
    func blog2021() async throws {
        let channel = try TestChannel()
        let list = try await channel.json("/items?q=type%20eq%20%22Starter-Blog-Post%22&limit=3")
        let summaries = list["items"]?.arrayValue ?? []
        #expect(!summaries.isEmpty)
        for summary in summaries {
            let rest = try await channel.json("/items/\(summary["id"]!.stringValue!)")
            let query = """
                { getStarterBlogPost(id: "\(rest["id"]!.stringValue!)") {
                    __typename name slug
                    fields {
                      starterBlogPostTitle starterBlogPostSummary starterBlogPostContent
                      starterBlogPostAuthor { name fields { starterBlogAuthorName } }
                      starterBlogPostHeaderImage { __typename id ... on image { fields { file { url } } } }
                    }
                } }
                """
            let answer = try await channel.graphQL(query)
            #expect(answer.errors.isEmpty, "\(answer.messages)")
            let post = try #require(answer.data?["getStarterBlogPost"])
            #expect(post["__typename"] == "starterBlogPost")
            #expect(post["slug"] == rest["slug"])
            let fields = rest["fields"]
            #expect(post["fields"]?["starterBlogPostTitle"] == fields?["starter-blog-post_title"])
            #expect(post["fields"]?["starterBlogPostSummary"] == fields?["starter-blog-post_summary"])
            #expect(post["fields"]?["starterBlogPostContent"] == fields?["starter-blog-post_content"])
            if let authorId = fields?["starter-blog-post_author"]?["id"]?.stringValue {
                let author = try await channel.json("/items/\(authorId)")
                #expect(
                    post["fields"]?["starterBlogPostAuthor"]?["fields"]?["starterBlogAuthorName"]
                        == author["fields"]?["starter-blog-author_name"])
            }
            if let imageId = fields?["starter-blog-post_header_image"]?["id"]?.stringValue {
                let header = post["fields"]?["starterBlogPostHeaderImage"]
                #expect(header?["id"]?.stringValue == imageId)
                if header?["__typename"] == "image", let url = header?["fields"]?["file"]?["url"]?.stringValue {
                    #expect(try await CatalogTests.follow(url, channel).status == 200)
                }
            }
        }
    }

    @Test("a user field named like a standard one is fieldType; dashes and underscores never make equal names")
    func naming() async throws {
        let folder = try TemporaryFolder("oceq-graphql-naming")
        defer { folder.remove() }
        let root = folder.path + "/contentexport"
        try FileManager.default.createDirectory(
            atPath: root + "/ContentItems/Section", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/ContentTypes", withIntermediateDirectories: true)
        let type: JSON = [
            "name": "Section", "typeCategory": "ContentType",
            "fields": [
                ["name": "type", "datatype": "text"], ["name": "heading", "datatype": "text"],
                ["name": "my-field", "datatype": "text"], ["name": "my_field", "datatype": "text"],
                ["name": "actions", "datatype": "json"],
            ],
        ]
        try Data(JSONWriter().bytes(type)).write(to: URL(fileURLWithPath: root + "/ContentTypes/Section.json"))
        let item: JSON = [
            "id": "CORE0000000000000000000000000000A1", "type": "Section", "typeCategory": "ContentType",
            "name": "Announcement", "slug": "announcement", "language": "en-US",
            "fields": [
                "type": "banner", "heading": "Hello", "my-field": "dash", "my_field": "underscore",
                "actions": ["primary": ["label": "Go"]],
            ],
        ]
        try Data(JSONWriter().bytes(item)).write(
            to: URL(fileURLWithPath: root + "/ContentItems/Section/CORE0000000000000000000000000000A1.json"))
        let channel = try TestChannel(paths: [folder.path])
        let answer = try await channel.graphQL(
            "{ getSection(slug: \"announcement\") { fields { type: fieldType heading myField myField_2 actions } } }")
        #expect(answer.errors.isEmpty, "\(answer.messages)")
        let fields = answer.data?["getSection"]?["fields"]
        #expect(fields?["type"] == "banner")
        #expect(fields?["heading"] == "Hello")
        #expect(fields?["myField"] == "dash")
        #expect(fields?["myField_2"] == "underscore")
        #expect(fields?["actions"]?["primary"]?["label"] == "Go")
    }
}
