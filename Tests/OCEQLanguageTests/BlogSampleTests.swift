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
}
