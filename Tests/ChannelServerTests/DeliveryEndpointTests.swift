import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import Testing

@Suite("Delivery endpoints over the 2021 export", .serialized)
struct DeliveryEndpointTests {
    let channel: TestChannel
    static let post = "CORE0676665F53764E3D9C2103E2FD42DF6F"
    static let image = "CONT3110A512B76A4F8AB544208A59896B78"

    init() throws {
        channel = try TestChannel()
    }

    @Test("a missing or wrong channel token gets 403 with OCM's message; the header form works")
    func channelToken() async throws {
        for response in [try await channel.get("/items", token: nil), try await channel.get("/items", token: "wrong")] {
            #expect(response.status == 403)
            let body = try JSON.parse(response.body)
            #expect(body["detail"] == "Channel Token is incorrect or missing in the request")
            #expect(body["status"] == 403)
            #expect(body["title"] == "Forbidden")
            #expect(body["o:errorCode"]?.stringValue != nil)
        }
        let viaHeader = try await channel.get("/items", token: nil, headers: ["channelToken": TestChannel.token])
        #expect(viaHeader.status == 200)
    }

    @Test("the search envelope always carries hasMore, offset, count, limit and links; summaries only")
    func envelope() async throws {
        let page = try await channel.json("/items?limit=5")
        #expect(Set(page.objectValue!.keys) == ["hasMore", "offset", "count", "limit", "items", "links"])
        #expect(page["count"] == 5)
        #expect(page["hasMore"] == true)
        let first = page["items"]![0]!
        #expect(Set(first.objectValue!.keys) == ["id", "type", "name", "description", "links"])
        let rels = page["links"]!.arrayValue!.compactMap { $0["rel"]?.stringValue }
        #expect(rels == ["self", "canonical", "describedby", "next", "first", "last"])
        for link in page["links"]!.arrayValue! {
            #expect(link["href"]!.stringValue!.contains("channelToken=\(TestChannel.token)"))
        }
        let counted = try await channel.json("/items?limit=5&totalResults=true")
        #expect(counted["totalResults"] == 29)
    }

    @Test("typed search with order and paging walks every post once, newest name order kept")
    func pagingAndOrder() async throws {
        var names: [String] = []
        var offset = 0
        while true {
            let q = "type%20eq%20%22Starter-Blog-Post%22"
            let page = try await channel.json(
                "/items?q=\(q)&orderBy=name:desc&limit=3&offset=\(offset)&totalResults=true")
            #expect(page["totalResults"] == 7)
            names += page["items"]!.arrayValue!.map { $0["name"]!.stringValue! }
            offset += page["count"]!.intValue!
            if page["hasMore"] == false { break }
        }
        #expect(names.count == 7)
        #expect(names == names.sorted { $0.lowercased() > $1.lowercased() })
    }

    @Test("fields=all lists full items with fields and reference stubs that carry links")
    func allFields() async throws {
        // The q names the type: OCM leaves the fields out of the hits of a q that pins no one type.
        let page = try await channel.json(
            "/items?q=type%20eq%20%22Starter-Blog-Post%22%20AND%20id%20eq%20%22\(Self.post)%22&fields=ALL")
        let item = try #require(page["items"]?[0])
        #expect(item["typeCategory"] == "ContentType")
        let author = try #require(item["fields"]?["starter-blog-post_author"])
        #expect(author["id"] == "CORECE3370197DB34D77A2D5D4DC0118B9C8")
        #expect(author["links"]?[0]?["rel"] == "self")
    }

    @Test("a malformed q gets 400 naming the position")
    func badQuery() async throws {
        let response = try await channel.get("/items?q=name%20eq%20%22x%22%20AND")
        #expect(response.status == 400)
        let body = try JSON.parse(response.body)
        #expect(body["detail"]!.stringValue!.contains("position"))
    }

    @Test("limit and offset are checked", arguments: ["limit=501", "limit=-1", "limit=ten", "offset=-3"])
    func badPaging(parameter: String) async throws {
        let response = try await channel.get("/items?\(parameter)")
        #expect(response.status == 400)
        #expect(try JSON.parse(response.body)["status"] == 400)
    }

    @Test("an item by id and by slug; an unknown one is 404 with an error body")
    func readItem() async throws {
        let item = try await channel.json("/items/\(Self.post)")
        #expect(item["id"]?.stringValue == Self.post)
        #expect(item["repositoryId"] == nil)
        #expect(item["links"]!.arrayValue!.map { $0["rel"]! } == ["self", "canonical", "describedby"])
        let slug = item["slug"]!.stringValue!
        let bySlug = try await channel.json("/items/.by.slug/\(URLEncoding.component(slug))")
        #expect(bySlug["id"]?.stringValue == Self.post)
        let missing = try await channel.get("/items/CORE00000000000000000000000000000000")
        #expect(missing.status == 404)
        #expect(try JSON.parse(missing.body)["title"] == "Item Not Found")
    }

    @Test("JSON answers carry an ETag and a matching If-None-Match gets 304")
    func jsonETag() async throws {
        let first = try await channel.get("/items/\(Self.post)")
        let tag = try #require(first.header("ETag"))
        let again = try await channel.get("/items/\(Self.post)", headers: ["If-None-Match": tag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
    }

    @Test("native files: the exact bytes, 304 on ETag, 206 on Range, 416 past the end")
    func native() async throws {
        let whole = try await channel.get("/assets/\(Self.image)/native")
        #expect(whole.status == 200)
        #expect(whole.header("Content-Type") == "image/jpeg")
        #expect(whole.body.count == 63239)
        #expect(whole.body.prefix(2) == [0xFF, 0xD8])
        let named = try await channel.get("/assets/\(Self.image)/native/Header%2011(430896).jpg")
        #expect(named.body == whole.body)
        let tag = try #require(whole.header("ETag"))
        #expect(try await channel.get("/assets/\(Self.image)/native", headers: ["If-None-Match": tag]).status == 304)
        let part = try await channel.get("/assets/\(Self.image)/native", headers: ["Range": "bytes=10-19"])
        #expect(part.status == 206)
        #expect(part.header("Content-Range") == "bytes 10-19/63239")
        #expect(part.body == Array(whole.body[10...19]))
        let stale = try await channel.get(
            "/assets/\(Self.image)/native", headers: ["Range": "bytes=10-19", "If-Range": "\"old\""])
        #expect(stale.status == 200 && stale.body.count == 63239)
        #expect(
            try await channel.get("/assets/\(Self.image)/native", headers: ["Range": "bytes=99999999-"]).status == 416)
    }

    @Test(
        "paths that try to leave the export never read a file",
        arguments: [
            "/assets/..%2F..%2F..%2Fetc%2Fpasswd/native", "/assets/../../etc/passwd/native",
            "/assets/%2e%2e/native/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/items/..%2F..%2Fmetadata.json",
        ])
    func traversal(path: String) async throws {
        let response = try await channel.get(path)
        #expect([400, 404].contains(response.status))
        #expect(!response.text.contains("root:"))
    }

    @Test("content items have no files: 404 with a body")
    func assetErrors() async throws {
        let response = try await channel.get("/assets/\(Self.post)/native")
        #expect(response.status == 404)
        #expect(try JSON.parse(response.body)["detail"]!.stringValue!.contains("not a digital asset"))
    }

    @Test("taxonomies list is an empty envelope; an unknown taxonomy is 404")
    func taxonomies() async throws {
        let list = try await channel.json("/taxonomies?totalResults=true")
        #expect(list["count"] == 0 && list["totalResults"] == 0 && list["hasMore"] == false)
        #expect(try await channel.get("/taxonomies/NOPE").status == 404)
    }

    @Test("variations of an item list its language set")
    func variations() async throws {
        let all = try await channel.json("/items/\(Self.post)/variations")
        #expect(all["data"]?[0]?["varType"] == "language")
        let set = try await channel.json("/items/\(Self.post)/variations/language")
        let member = try #require(set["items"]?[0])
        let variant = try await channel.json("/items/\(Self.post)/variations/language/\(member["value"]!.stringValue!)")
        #expect(variant["id"] != nil)
    }

    @Test("only GET and HEAD are allowed")
    func methods() async throws {
        let post = try await channel.get("/items", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        let head = try await channel.get("/items", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
    }

    @Test("a secure channel needs the bearer token")
    func bearer() async throws {
        let secure = try TestChannel(bearer: "b-secret")
        #expect(try await secure.get("/items").status == 401)
        #expect(try await secure.get("/items", headers: ["Authorization": "Bearer wrong"]).status == 401)
        #expect(try await secure.get("/items", headers: ["Authorization": "Bearer b-secret"]).status == 200)
    }
}

@Suite("The response cache")
struct ResponseCacheTests {
    @Test("repeated requests get the same bytes, and the credentials gate still runs first")
    func cachedAnswers() async throws {
        let channel = try TestChannel(bearer: "b-1")
        let bearer = ["Authorization": "Bearer b-1"]
        let path = "/items?q=type%20eq%20%22Starter-Blog-Post%22&fields=all&limit=3"
        let first = try await channel.get(path, headers: bearer)
        let second = try await channel.get(path, headers: bearer)
        #expect(first.status == 200 && second.status == 200)
        #expect(first.body == second.body && first.header("ETag") == second.header("ETag"))
        #expect(try await channel.get(path, headers: ["Authorization": "Bearer wrong"]).status == 401)
        #expect(try await channel.get(path, token: "wrong", headers: bearer).status == 403)
        let tag = try #require(first.header("ETag"))
        #expect(try await channel.get(path, headers: bearer.merging(["If-None-Match": tag]) { $1 }).status == 304)
    }

    @Test("answers are the same with the cache off")
    func sameWithoutCache() async throws {
        let cached = try TestChannel()
        let plain = try TestChannel(responseCacheMiB: 0)
        for path in [
            "/items?limit=7&offset=3&totalResults=true", "/items/CORE0676665F53764E3D9C2103E2FD42DF6F?expand=all",
        ] {
            let a = try JSON.parse(try await cached.get(path).body)
            let b = try JSON.parse(try await plain.get(path).body)
            // Hosts differ by port only; compare with each port normalised.
            let left = JSONWriter().string(a).replacingOccurrences(of: "127.0.0.1:\(cached.port)", with: "HOST")
            let right = JSONWriter().string(b).replacingOccurrences(of: "127.0.0.1:\(plain.port)", with: "HOST")
            #expect(left == right)
        }
    }
}
