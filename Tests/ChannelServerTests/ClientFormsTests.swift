import ChannelServer
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// The request forms of Oracle's other clients (issue 16 points 1, 2, 3, 5, 9), over HTTP against
/// the sample channel: the JS SDK's `field:type:equals` and `expand="all"`, renditions by slug,
/// CORS, gatsby-source-oce's scrolled paging, `links=none`, suggestions, the API root.
@Suite("oceq serve answers the forms Oracle's other clients send", .serialized)
struct ClientFormsTests {
    static let origin = "https://app.example.com"
    static let article = "CORE034E9E5F88CD31495EB4166E81ECB6AD"
    static let image = "CONT048FE3B8FBB416FBB0D2E2232FF7F1F9"
    static let imageSlug = "image-ridge-evening-wide-30"

    let channel: TestChannel

    init() throws {
        channel = try TestChannel(paths: [SampleChannelTests.sampleFolder], cors: [Self.origin])
    }

    /// Every `links` array anywhere in `value`.
    static func linkArrays(_ value: JSON) -> [[JSON]] {
        switch value {
        case .object(let members):
            return members.flatMap { key, member -> [[JSON]] in
                if key == "links", case .array(let links) = member { return [links] + linkArrays(member) }
                return linkArrays(member)
            }
        case .array(let elements): return elements.flatMap(linkArrays)
        default: return []
        }
    }

    func types(_ page: JSON) -> Set<String> {
        Set(page["items"]!.arrayValue!.compactMap { $0["type"]?.stringValue })
    }

    @Test("field:type:equals=T filters like type eq \"T\", ANDed with q; a type list is an OR")
    func fieldTypeEquals() async throws {
        let viaField = try await channel.json(
            "/items?field:type:equals=OCEGettingStartedTopic&totalResults=true&limit=500")
        let viaQ = try await channel.json(
            "/items?q=type%20eq%20%22OCEGettingStartedTopic%22&totalResults=true&limit=500")
        #expect(types(viaField) == ["OCEGettingStartedTopic"])
        #expect(viaField["totalResults"] == viaQ["totalResults"])
        let all = try await channel.json("/items?totalResults=true&limit=1")
        #expect(viaField["totalResults"]!.intValue! < all["totalResults"]!.intValue!)

        let slug = try await channel.json("/items/\(Self.article)")["slug"]!.stringValue!
        let both = try await channel.json(
            "/items?field:type:equals=OCEGettingStartedArticle&q=slug%20eq%20%22\(slug)%22&totalResults=true")
        #expect(both["totalResults"] == 1)
        #expect(both["items"]?[0]?["id"]?.stringValue == Self.article)
        let none = try await channel.json(
            "/items?field:type:equals=OCEGettingStartedTopic&q=slug%20eq%20%22\(slug)%22&totalResults=true")
        #expect(none["totalResults"] == 0)

        let two = try await channel.json(
            "/items?field:type:equals=OCEGettingStartedTopic,OCEGettingStartedAuthor&limit=500")
        #expect(types(two) == ["OCEGettingStartedTopic", "OCEGettingStartedAuthor"])

        let named = try await channel.json("/items?field:name:equals=HomePage&totalResults=true")
        #expect(named["totalResults"] == 1)
        #expect(named["items"]?[0]?["type"] == "OCEGettingStartedHomePage")
    }

    @Test("an unknown field: operator or a malformed field: parameter is a 400 with a clear detail, never ignored")
    func fieldFormsRefused() async throws {
        let unknownOperator = try await channel.get("/items?field:type:contains=Topic")
        #expect(unknownOperator.status == 400)
        let detail = try JSON.parse(unknownOperator.body)["detail"]!.stringValue!
        #expect(detail.contains("'contains'") && detail.contains("field:NAME:equals=VALUE"))
        #expect(try await channel.get("/items?field:type:equals=").status == 400)
        #expect(try await channel.get("/items?field::equals=x").status == 400)

        // A malformed q is OCM's "Invalid Query", and so is a type the channel does not have.
        let malformed = try JSON.parse(try await channel.get("/items?q=type%20eq%20%22x%22%20AND").body)
        #expect(malformed["title"] == "Invalid Query" && malformed["status"] == 400)
        let unknownType = try await channel.get("/items?field:type:equals=unknown&totalResults=true")
        #expect(unknownType.status == 400)
        #expect(try JSON.parse(unknownType.body)["detail"] == "Type with name unknown is not found")
    }

    @Test("expand=\"all\" (quoted) expands like expand=all on /items and /items/{id}")
    func quotedExpand() async throws {
        let plain = try await channel.json("/items/\(Self.article)?expand=all")
        let quoted = try await channel.get("/items/\(Self.article)?expand=%22all%22")
        #expect(quoted.status == 200)
        let quotedItem = try JSON.parse(quoted.body)
        #expect(quotedItem["fields"] == plain["fields"])
        #expect(quotedItem["fields"]?["author"]?["fields"] != nil)

        // As the JS SDK's getItems({types}) asks it: the type pinned (else OCM leaves fields out of hits).
        let q = "field:type:equals=OCEGettingStartedArticle&q=id%20eq%20%22\(Self.article)%22&fields=all"
        let listed = try await channel.json("/items?\(q)&expand=all")["items"]![0]!
        let listedQuoted = try await channel.json("/items?\(q)&expand=%22all%22")["items"]![0]!
        let unexpanded = try await channel.json("/items?\(q)")["items"]![0]!
        #expect(listedQuoted["fields"] == listed["fields"])
        #expect(listedQuoted["fields"] != unexpanded["fields"])
    }

    @Test("renditions by slug, long and short forms, answer the bytes of the id forms")
    func renditionsBySlug() async throws {
        let native = try await channel.get("/assets/\(Self.image)/native")
        #expect(native.status == 200)
        for path in ["/assets/.by.slug/\(Self.imageSlug)/native", "/assets/.by.slug/\(Self.imageSlug)/native/x.jpg"] {
            let bySlug = try await channel.get(path)
            #expect(bySlug.status == 200)
            #expect(bySlug.body == native.body)
            #expect(bySlug.header("Content-Type") == native.header("Content-Type"))
        }
        for name in ["Thumbnail", "Small", "Medium", "Large"] {
            let byId = try await channel.get("/assets/\(Self.image)/\(name)?format=jpg")
            let bySlug = try await channel.get("/assets/.by.slug/\(Self.imageSlug)/\(name)?format=jpg")
            #expect(byId.status == 200)
            #expect(bySlug.status == 200)
            #expect(bySlug.body == byId.body, "\(name)")
        }
        let short = try await RawHTTPClient.send(
            port: channel.port, target: "/content/assets/\(Self.imageSlug)/native?channelToken=\(TestChannel.token)")
        #expect(short.status == 200)
        #expect(short.body == native.body)
        let shortMedium = try await RawHTTPClient.send(
            port: channel.port,
            target: "/content/assets/\(Self.imageSlug)/Medium?format=webp&channelToken=\(TestChannel.token)")
        #expect(shortMedium.status == 200)
        #expect(shortMedium.header("Content-Type") == "image/webp")
        let missing = try await channel.get("/assets/.by.slug/no-such-slug/native")
        #expect(missing.status == 404)
        #expect(try JSON.parse(missing.body)["title"] == "Item Not Found")
        await #expect(
            try RawHTTPClient.send(port: channel.port, target: "/content/assets/\(Self.imageSlug)/native").status == 403
        )
    }

    @Test("CORS: a preflight from a listed origin gets 204 with methods and headers; its GET is readable")
    func cors() async throws {
        let preflight = try await channel.get(
            "/items?limit=1", token: nil,
            headers: [
                "Origin": Self.origin, "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization,channeltoken",
            ], method: "OPTIONS")
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == Self.origin)
        #expect(preflight.header("Access-Control-Allow-Methods")?.contains("GET") == true)
        let allowed = preflight.header("Access-Control-Allow-Headers") ?? ""
        for header in ["Authorization", "channelToken", "Content-Type"] { #expect(allowed.contains(header)) }
        #expect(preflight.header("Vary") == "Origin")

        let get = try await channel.get("/items?limit=1", headers: ["Origin": Self.origin])
        #expect(get.status == 200)
        #expect(get.header("Access-Control-Allow-Origin") == Self.origin)
        #expect(get.header("Vary") == "Origin")
        #expect(get.header("Access-Control-Expose-Headers")?.contains("ETag") == true)
        // Errors are readable too (a browser app sees the 403's body).
        let denied = try await channel.get("/items", token: nil, headers: ["Origin": Self.origin])
        #expect(denied.status == 403)
        #expect(denied.header("Access-Control-Allow-Origin") == Self.origin)

        let stranger = try await channel.get("/items?limit=1", headers: ["Origin": "https://evil.example"])
        #expect(stranger.status == 200)
        #expect(stranger.header("Access-Control-Allow-Origin") == nil)
        let strangerPreflight = try await channel.get(
            "/items", token: nil, headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "GET"],
            method: "OPTIONS")
        #expect(strangerPreflight.status == 405)
        #expect(strangerPreflight.header("Access-Control-Allow-Origin") == nil)
    }

    @Test("CORS is off by default: no CORS headers, OPTIONS is 405")
    func corsOff() async throws {
        let plain = try TestChannel(paths: [SampleChannelTests.sampleFolder])
        let get = try await plain.get("/items?limit=1", headers: ["Origin": Self.origin])
        #expect(get.status == 200)
        #expect(get.header("Access-Control-Allow-Origin") == nil)
        #expect(get.header("Vary") == nil)
        let preflight = try await plain.get(
            "/items", token: nil, headers: ["Origin": Self.origin, "Access-Control-Request-Method": "GET"],
            method: "OPTIONS")
        #expect(preflight.status == 405)
    }

    @Test("gatsby-source-oce's scrolled paging walks every item once and ends on count 0")
    func gatsbyScroll() async throws {
        let total = try await channel.json("/items?limit=1&totalResults=true")["totalResults"]!.intValue!
        var ids: [String] = []
        var scrollId = ""
        var calls = 0
        while calls < 100 {
            calls += 1
            let suffix = scrollId.isEmpty ? "" : "&scrollId=\(scrollId)"
            let target =
                "\(TestChannel.prefix)/items?limit=10&scroll=true&orderBy=id:asc&channelToken=\(TestChannel.token)"
                + "&q=(name%20ne%20%22.*%22)\(suffix)"
            let response = try await RawHTTPClient.send(port: channel.port, target: target)
            #expect(response.status == 200)
            let page = try JSON.parse(response.body)
            guard page["count"]!.intValue! > 0 else { break }
            ids += page["items"]!.arrayValue!.map { $0["id"]!.stringValue! }
            if scrollId.isEmpty {
                scrollId = URLEncoding.component(try #require(page["scrollId"]?.stringValue))
            }
        }
        #expect(calls == (total + 9) / 10 + 1)
        #expect(ids.count == total)
        #expect(Set(ids).count == total)
        #expect(ids == ids.sorted())
        let stale = try await channel.get("/items?limit=10&scroll=true&scrollId=\(scrollId)")
        #expect(stale.status == 400)
    }

    @Test("links=none empties every links array; includeAdditionalData is accepted")
    func linksNoneAndAdditionalData() async throws {
        for path in [
            "/items?q=type%20eq%20%22Image%22&fields=all&links=none&limit=3",
            "/items/\(Self.article)?expand=all&links=none", "/items/\(Self.image)?links=none",
        ] {
            let body = try await channel.json(path)
            let arrays = Self.linkArrays(body)
            #expect(!arrays.isEmpty, "\(path)")
            #expect(arrays.allSatisfy { $0.isEmpty }, "\(path)")
        }
        let plain = try await channel.json("/items?limit=4&totalResults=true")
        let extra = try await channel.json("/items?limit=4&totalResults=true&includeAdditionalData=true")
        #expect(extra["items"]!.arrayValue!.map { $0["id"] } == plain["items"]!.arrayValue!.map { $0["id"] })
    }

    @Test("limit in an /items answer is the number of all matches, as OCM reports it")
    func limitIsTotal() async throws {
        let page = try await channel.json("/items?limit=5&offset=0&totalResults=true")
        #expect(page["count"] == 5)
        #expect(page["hasMore"] == true)
        #expect(page["limit"] == page["totalResults"])
        #expect(page["limit"]!.intValue! > 5)
    }

    @Test("/items/suggest completes the last word from the full-text index")
    func suggest() async throws {
        let answer = try await channel.json("/items/suggest?kw=Espr&limit=5")
        let values = answer["items"]!.arrayValue!.compactMap { $0["value"]?.stringValue }
        #expect(!values.isEmpty)
        #expect(values.count <= 5)
        #expect(values.allSatisfy { $0.hasPrefix("espr") })
        let phrase = try await channel.json("/items/suggest?kw=iced%20espr")
        let phrased = phrase["items"]!.arrayValue!.compactMap { $0["value"]?.stringValue }
        #expect(!phrased.isEmpty && phrased.allSatisfy { $0.hasPrefix("iced espr") })
        #expect(try await channel.json("/items/suggest?kw=zzzzqx")["count"] == 0)
    }

    @Test("the API root and the version list answer; recommendations and layouts are 404 with a reason")
    func rootAndUnserved() async throws {
        let root = try await RawHTTPClient.send(
            port: channel.port, target: "/content/published/api/v1.1?channelToken=\(TestChannel.token)")
        #expect(root.status == 200)
        let info = try JSON.parse(root.body)
        #expect(info["version"] == "v1.1" && info["lifecycle"] == "active" && info["isLatest"] == true)
        #expect(info["links"]!.arrayValue!.map { $0["rel"]! } == ["self", "canonical", "describedby"])
        #expect(info["catalog"]?["links"]?[0]?["href"]?.stringValue?.contains("/v1.1/metadata-catalog") == true)
        let versions = try await RawHTTPClient.send(
            port: channel.port, target: "/content/published/api?channelToken=\(TestChannel.token)")
        #expect(versions.status == 200)
        #expect(try JSON.parse(versions.body)["items"]?[0]?["version"] == "v1.1")

        let recommendation = try await channel.get("/personalization/recommendationResults/.by.id/R1")
        #expect(recommendation.status == 404)
        #expect(try JSON.parse(recommendation.body)["detail"]!.stringValue!.contains("personalization"))
        await #expect(try channel.get("/layouts").status == 404)
    }

    @Test("the exact URLs Oracle's JS Content SDK 1.6.2 produces get the right answers")
    func jsSDKReplay() async throws {
        let token = TestChannel.token
        func send(_ path: String) async throws -> RawHTTPResponse {
            try await RawHTTPClient.send(port: channel.port, target: TestChannel.prefix + path)
        }
        // getItems({types, expand:'all'}): the type as a field parameter, expand quoted, cache buster.
        let typed = try await send(
            "/items?field:type:equals=OCEGettingStartedArticle&expand=%22all%22&channelToken=\(token)&cb=k3j2h")
        #expect(typed.status == 200)
        let typedPage = try JSON.parse(typed.body)
        #expect(types(typedPage) == ["OCEGettingStartedArticle"])

        // getItems({ids}): an OR of ids in parentheses, as encodeURI leaves it.
        let topic = "CORE118E1B080FC00FDDF39E019435E84A97"
        let byIds = try JSON.parse(
            try await send(
                "/items?q=(id%20eq%20%22\(Self.article)%22%20or%20id%20eq%20%22\(topic)%22)&channelToken=\(token)"
                    + "&cb=k3j2h"
            ).body)
        #expect(Set(byIds["items"]!.arrayValue!.map { $0["id"]!.stringValue! }) == [Self.article, topic])

        // queryItems with an orderBy array, links=self, and the app's categoryId leaking through.
        let queried = try await send(
            "/items?q=(type%20eq%20%22OCEGettingStartedArticle%22%20and%20fields.topic%20eq%20%22\(topic)%22)"
                + "&fields=ALL&orderBy=name:asc&links=self&limit=5&offset=0&totalResults=true&categoryId=\(topic)"
                + "&channelToken=\(token)&cb=k3j2h")
        #expect(queried.status == 200)
        let page = try JSON.parse(queried.body)
        let names = page["items"]!.arrayValue!.map { $0["name"]!.stringValue! }
        #expect(!names.isEmpty)
        #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        #expect(page["links"]!.arrayValue!.map { $0["rel"]! } == ["self"])
        for item in page["items"]!.arrayValue! {
            #expect(item["fields"]?["topic"]?["id"]?.stringValue == topic)
            #expect(item["links"]!.arrayValue!.map { $0["rel"]! } == ["self"])
        }

        // getItem({id, expand:'all'}) and getItem({slug}).
        let item = try JSON.parse(
            try await send("/items/\(Self.article)?expand=all&channelToken=\(token)&cb=k3j2h").body)
        #expect(item["fields"]?["author"]?["fields"] != nil)
        let slug = item["slug"]!.stringValue!
        let bySlug = try await send("/items/.by.slug/\(slug)?channelToken=\(token)&cb=k3j2h")
        #expect(bySlug.status == 200)

        // getRenditionURL({slug}) and ({id}): cb, format, download, then the token.
        let rendition = try await send(
            "/assets/.by.slug/\(Self.imageSlug)/Medium?cb=k3j2h&format=jpg&download=false&channelToken=\(token)")
        #expect(rendition.status == 200)
        #expect(rendition.header("Content-Type") == "image/jpeg")
        #expect(rendition.header("Content-Disposition")?.hasPrefix("inline") == true)
        let native = try await send(
            "/assets/.by.slug/\(Self.imageSlug)/native?cb=k3j2h&download=true&channelToken=\(token)")
        #expect(native.status == 200)
        #expect(native.header("Content-Disposition")?.hasPrefix("attachment") == true)
        let nativeById = try await send("/assets/\(Self.image)/native?cb=k3j2h&channelToken=\(token)")
        #expect(nativeById.body == native.body)
    }
}
