import DeliveryKit
import OCEQCore
import OCEQLanguage
import Testing

/// The blog sample's requests (shared/reference/blog-sample.md §3), written as oceq statements.
@Suite("Blog sample queries")
struct BlogSampleTests {
    static let topicId = "CORE1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6"
    static let articleId = "COREF00DF00DF00DF00DF00DF00DF00DF00D"
    static let environment = StaticEnvironment(rows: [articleId, topicId])

    @Test("3.1 the home page: first item of the home type named HomePage, with its fields")
    func homePage() throws {
        let query = try compiled(
            "first type=OCEGettingStartedHomePage name=HomePage fields all", environment: BlogSampleTests.environment)
        #expect(query.q(style: .sdk) == #"type eq "OCEGettingStartedHomePage" and name eq "HomePage""#)
        #expect(query.q == #"(type eq "OCEGettingStartedHomePage" AND name eq "HomePage")"#)
        #expect(query.fields == "all")
        #expect(query.limit == 1)
        #expect(query.orderBy == nil)
    }

    @Test("3.3 the articles of a topic, newest first")
    func articles() throws {
        let query = try compiled(
            "list type=OCEGettingStartedArticle topic=@2 order published_date desc limit 50",
            environment: BlogSampleTests.environment)
        #expect(
            query.q(style: .sdk)
                == #"type eq "OCEGettingStartedArticle" and fields.topic eq "CORE1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6""#)
        #expect(query.orderBy == "fields.published_date:desc")
        #expect(query.limit == 50)
        #expect(query.fields == nil)
    }

    @Test("3.2 and 3.4 the topic and article reads")
    func reads() throws {
        let compiler = Compiler(environment: BlogSampleTests.environment)
        let parsed = Parser.parse("get @2\nget @1 expand author\nget slug:my-article expand all")
        #expect(parsed.diagnostics.isEmpty)
        let reads = try parsed.statements.map { statement throws -> CompiledRead in
            guard case .command(let command) = statement else { throw TestFailure("not a command") }
            return try compiler.compileGet(command)
        }
        #expect(reads[0] == CompiledRead(target: .id(BlogSampleTests.topicId)))
        #expect(reads[1] == CompiledRead(target: .id(BlogSampleTests.articleId), expand: "fields.author"))
        #expect(reads[2] == CompiledRead(target: .slug("my-article"), expand: "all"))
    }

    /// Path and query of `request` on a server with channel token TOKEN, the API prefix shortened
    /// to `/api` as blog-sample.md writes it.
    static func url(_ request: some DeliveryRequest) throws -> String {
        let endpoint = try request.endpoint()
        let url = endpoint.url(on: try ServerAddress("http://localhost:2112"), defaultToken: Secret("TOKEN")).url
        return String(url.dropFirst("http://localhost:2112".count))
            .replacingOccurrences(of: "/content/published/api/v1.1", with: "/api")
    }

    func request(_ text: String) throws -> ListAssets {
        try compiled(text, environment: BlogSampleTests.environment).request(style: .sdk)
    }

    func read(_ text: String) throws -> ReadAsset {
        let parsed = Parser.parse(text)
        guard parsed.diagnostics.isEmpty, case .command(let command) = parsed.statements.first else {
            throw TestFailure("\(text) is not a command")
        }
        return try Compiler(environment: BlogSampleTests.environment).compileGet(command).request()
    }

    @Test("the blog sample's requests, compiled from oceq statements, are exactly the URLs of blog-sample.md")
    func exactURLs() throws {
        let topic = BlogSampleTests.topicId
        let article = BlogSampleTests.articleId
        // 3.1, step 1: the home item.
        #expect(
            try Self.url(request("first type=OCEGettingStartedHomePage name=HomePage fields all"))
                == "/api/items?channelToken=TOKEN&fields=all&limit=1&offset=0"
                + "&q=type%20eq%20%22OCEGettingStartedHomePage%22%20and%20name%20eq%20%22HomePage%22&totalResults=true")
        // 3.2, step 4: re-reading a topic.
        #expect(try Self.url(read("get @2")) == "/api/items/\(topic)?channelToken=TOKEN&expand=all")
        // 3.3, step 6: the articles of a topic.
        #expect(
            try Self.url(request("list type=OCEGettingStartedArticle topic=@2 order published_date desc limit 50"))
                == "/api/items?channelToken=TOKEN&limit=50&offset=0&orderBy=fields.published_date:desc"
                + "&q=type%20eq%20%22OCEGettingStartedArticle%22%20and%20fields.topic%20eq%20%22\(topic)%22"
                + "&totalResults=true")
        // 3.4, step 8: an article with its author expanded.
        #expect(
            try Self.url(read("get @1 expand author"))
                == "/api/items/\(article)?channelToken=TOKEN&expand=fields.author")
    }

    @Test("the card's example as a request: q parenthesised with AND, order, limit")
    func cardRequest() throws {
        let query = try compiled(
            "list type=OCEGettingStartedArticle topic=@2 order published_date desc limit 50",
            environment: BlogSampleTests.environment)
        #expect(
            try Self.url(query.request())
                == "/api/items?channelToken=TOKEN&limit=50&offset=0&orderBy=fields.published_date:desc"
                + "&q=(type%20eq%20%22OCEGettingStartedArticle%22%20AND%20fields.topic%20eq%20%22"
                + "\(BlogSampleTests.topicId)%22)&totalResults=true")
    }

    @Test("every clause reaches the request")
    func allClauses() throws {
        let query = try compiled(
            "list type=A search 'cold brew' order name, createdDate desc limit 20 offset 40 fields name,author "
                + "expand author")
        let values = query.request().parameterValues
        #expect(values["q"] == nil)  // DeliveryKit renders q from the query text at endpoint time
        #expect(values["default"] == "cold brew")
        #expect(values["orderBy"] == "name:asc;createdDate:desc")
        #expect(values["limit"] == "20")
        #expect(values["offset"] == "40")
        #expect(values["fields"] == "name,fields.author")
        #expect(values["expand"] == "fields.author")
        #expect(values["totalResults"] == "true")
        let count = try compiled("count type=A").request().parameterValues
        #expect(count["limit"] == "1")
        #expect(count["totalResults"] == "true")
    }

    @Test("the SDK style is what DeliveryKit's QueryBuilder renders for the same conditions")
    func sameAsQueryBuilder() throws {
        let a = try QueryNode.equal(field: "type", value: "A")
        let b = try QueryNode.equal(field: "fields.b", value: "2")
        let c = try QueryNode.equal(field: "fields.c", value: "3")
        let list = try ["1", "2", "3"].map { value throws(QueryError) in
            try QueryNode.equal(field: "fields.x", value: value)
        }
        let cases: [(String, QueryBuilder)] = [
            ("list type=A fields.b=2", QueryBuilder(node: a).and(b)),
            ("list type=A b=2 c=3", QueryBuilder(node: a).and(b).and(c)),
            (
                "list type=A (b=2 or c=3)",
                QueryBuilder(node: a).and(builder: QueryBuilder(node: b).or(c, grouping: .grouped))
            ),
            ("list x in (1, 2, 3) type=A", try QueryBuilder(matchList: list).and(a)),
            ("list not (b=2 or c=3)", QueryBuilder.not(QueryBuilder(node: b).or(c))),
        ]
        for (text, builder) in cases {
            #expect(try compiled(text).q(style: .sdk) == builder.buildQueryString(), "\(text)")
        }
    }
}
