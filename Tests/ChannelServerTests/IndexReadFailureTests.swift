// When the index file cannot be read under a running server (damaged, truncated by something else),
// a request for an item that exists must fail as the server's fault (500 with the reason, a GraphQL
// error), never answer "no such item" or a page with stand-in items: those are answers that look
// right and are not. An id the index does not have is still a 404, and a page of summaries is
// still answered: neither touches the damaged part.

import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

@Suite("serve: an index that cannot be read answers 500, not 404")
struct IndexReadFailureTests {
    static let token = "failure-token"

    /// A channel served from its index file, whose side file (the stored item bodies) is then
    /// emptied; idle connections are closed, so the next reads open the emptied file.
    static func damagedService(_ cache: TemporaryFolder) throws -> (ChannelService, ExportItem) {
        var options = ServeOptions()
        options.paths = [ExportFixtures.blog2021Zip]
        options.token = Secret(token)
        options.cacheDirectory = cache.path + "/serve"
        options.responseCacheMiB = 0
        let service = try ChannelService.load(options)
        let item = try service.content.items.item(at: 0)
        let folder = cache.path + "/serve/index"
        let side = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".sqlite.side") })
        #expect(truncate(folder + "/" + side, 0) == 0)
        service.index.pool.drain()
        return (service, item)
    }

    static func get(_ service: ChannelService, _ path: String) -> (status: Int, body: JSON?) {
        let target = "/content/published/api/v1.1" + path + (path.contains("?") ? "&" : "?") + "channelToken=" + token
        let response = service.router.handle(ServerRequest(method: "GET", target: target))
        guard case .bytes(let bytes) = response.body else { return (response.status, nil) }
        return (response.status, try? JSON.parse(bytes))
    }

    @Test("an existing item, by id, by slug and in a listing, is a 500 that names the index; an unknown id stays 404")
    func restAnswers() throws {
        let cache = try TemporaryFolder("oceq-index-failure")
        defer { cache.remove() }
        let (service, item) = try Self.damagedService(cache)

        var paths = ["/items/\(item.id)", "/items?limit=5&fields=ALL", "/assets/\(item.id)/native"]
        if let slug = item.slug { paths.append("/items/.by.slug/\(URLEncoding.component(slug))") }
        for path in paths {
            let (status, body) = Self.get(service, path)
            #expect(status == 500, "\(path)")
            let detail = body?["detail"]?.stringValue ?? ""
            #expect(detail.contains("could not be read") || detail.contains("the search failed"), "\(path): \(detail)")
        }
        #expect(Self.get(service, "/items/CORE00000000000000000000000000000000").status == 404)
        // A page of summaries is read from the main file alone (the `items` table), which is
        // intact: its answer is right, not a stand-in.
        let (status, body) = Self.get(service, "/items?limit=5")
        #expect(status == 200)
        #expect(body?["items"]?[0]?["id"]?.stringValue == item.id)
        #expect(body?["items"]?[0]?["name"]?.stringValue == item.name)
    }

    @Test("GraphQL's getItem reports the failure as an error, not as a missing item")
    func graphQLAnswer() throws {
        let cache = try TemporaryFolder("oceq-index-failure-graphql")
        defer { cache.remove() }
        let (service, item) = try Self.damagedService(cache)
        var request = ServerRequest(
            method: "POST", target: "/content/published/api/v1.1/graphql?channelToken=" + Self.token,
            headers: ["content-type": "application/json"])
        request.body = JSONWriter().bytes(["query": .string("{ getItem(id: \"\(item.id)\") { id name } }")])
        let response = service.router.handle(request)
        guard case .bytes(let bytes) = response.body else {
            Issue.record("no body")
            return
        }
        let answer = try JSON.parse(bytes)
        let message = answer["errors"]?[0]?["message"]?.stringValue ?? ""
        #expect(message.contains("could not be read"), "\(message)")
        #expect(!message.contains("No item"), "\(message)")
    }
}
