import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// The bundled OCEGettingStarted channel, walked with the exact calls of Oracle's blog sample
/// (blog-sample.md §3), and every image's renditions decoded and measured.
@Suite("The sample channel answers the blog sample", .serialized)
struct SampleChannelTests {
    static var sampleFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/OCEGettingStarted").path
    }

    let channel: TestChannel

    init() throws {
        channel = try TestChannel(paths: [Self.sampleFolder])
    }

    @Test("home → topic cards → articles of a topic → article page, as the iOS sample calls them")
    func blogFlow() async throws {
        // 3.1 the home item, then its logo.
        let homeList = try await channel.json(
            "/items?fields=all&limit=1&offset=0&q=type%20eq%20%22OCEGettingStartedHomePage%22%20and%20name%20eq%20%22HomePage%22&totalResults=true"
        )
        let home = try #require(homeList["items"]?[0])
        #expect(home["name"] == "HomePage")
        #expect(home["fields"]?["company_name"] == "Café Supremo")
        #expect(home["fields"]?["about_url"]?.stringValue != nil && home["fields"]?["contact_url"]?.stringValue != nil)
        let logo = try #require(home["fields"]?["company_logo"]?["id"]?.stringValue)
        #expect(try await channel.get("/assets/\(logo)/native").status == 200)
        let topics = try #require(home["fields"]?["topics"]?.arrayValue)
        #expect(topics.count >= 6)

        var articleCount = 0
        for stub in topics {
            // 3.2 each topic card: re-read with expand=all, then its Medium jpg.
            let topicId = try #require(stub["id"]?.stringValue)
            let topic = try await channel.json("/items/\(topicId)?expand=all")
            #expect(topic["description"]?.stringValue?.isEmpty == false)
            let thumbnail = try #require(topic["fields"]?["thumbnail"]?["id"]?.stringValue)
            let medium = try await channel.get("/assets/\(thumbnail)/Medium?format=jpg")
            #expect(medium.status == 200 && medium.header("Content-Type") == "image/jpeg")

            // 3.3 the articles of the topic, newest first, no fields parameter.
            let list = try await channel.json(
                "/items?limit=50&offset=0&orderBy=fields.published_date:desc&q=type%20eq%20%22OCEGettingStartedArticle%22%20and%20fields.topic%20eq%20%22\(topicId)%22&totalResults=true"
            )
            let articles = try #require(list["items"]?.arrayValue)
            #expect(!articles.isEmpty && list["totalResults"]?.intValue == articles.count)
            articleCount += articles.count
            var previous: Double = .infinity
            for summary in articles {
                // 3.4 the article page with its author expanded; avatar and hero natives.
                let id = try #require(summary["id"]?.stringValue)
                let article = try await channel.json("/items/\(id)?expand=fields.author")
                #expect(article["fields"]?["topic"]?["id"]?.stringValue == topicId)
                let published = try #require(article["fields"]?["published_date"]?["value"]?.stringValue)
                let instant = try #require(Self.instant(published))
                #expect(instant <= previous, "articles of \(topicId) must come newest first")
                previous = instant
                let avatar = try #require(article["fields"]?["author"]?["fields"]?["avatar"]?["id"]?.stringValue)
                #expect(try await channel.get("/assets/\(avatar)/native").status == 200)
                let hero = try #require(article["fields"]?["image_16x9"]?["id"]?.stringValue)
                #expect(try await channel.get("/assets/\(hero)/native").status == 200)
                let image = try #require(article["fields"]?["image"]?["id"]?.stringValue)
                #expect(try await channel.get("/assets/\(image)/thumbnail?type=uithumbnail").status == 200)
            }
        }
        #expect(articleCount == 60)
    }

    @Test("every image has its four renditions in jpg, png and webp at the advertised sizes")
    func everyRendition() async throws {
        let images = try await channel.json("/items?q=type%20eq%20%22Image%22&limit=500&fields=all")
        let items = try #require(images["items"]?.arrayValue)
        #expect(items.count >= 70)
        let engine = VipsRenditions(directory: NSTemporaryDirectory())
        let scratch = NSTemporaryDirectory() + "oceq-sample-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let port = channel.port
        let failures = Locked<[String]>([])
        await OffPool.run {
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                let item = items[index]
                let id = item["id"]!.stringValue!
                let renditions = item["fields"]?["renditions"]?.arrayValue ?? []
                if Set(renditions.compactMap { $0["name"]?.stringValue }) != ["Thumbnail", "Small", "Medium", "Large"] {
                    failures.withLock { $0.append("\(id): renditions listed \(renditions.count)") }
                }
                for rendition in renditions {
                    let name = rendition["name"]!.stringValue!
                    for format in rendition["formats"]?.arrayValue ?? [] {
                        let ext = format["format"]!.stringValue!
                        let width = format["metadata"]?["width"]?.stringValue
                        let height = format["metadata"]?["height"]?.stringValue
                        let target =
                            "/content/published/api/v1.1/assets/\(id)/\(name)?format=\(ext)&channelToken=\(TestChannel.token)"
                        guard let response = try? RawHTTPClient.sendSynchronously(port: port, target: target),
                            response.status == 200
                        else {
                            failures.withLock { $0.append("\(id) \(name) \(ext): not served") }
                            continue
                        }
                        let file = "\(scratch)/\(id)-\(name).\(ext)"
                        #expect(FileManager.default.createFile(atPath: file, contents: Data(response.body)))
                        let size = engine.nativeSize(of: file)
                        if size.map({ (String($0.width), String($0.height)) }) ?? ("", "") != (
                            width ?? "-", height ?? "-"
                        ) {
                            failures.withLock {
                                $0.append(
                                    "\(id) \(name) \(ext): decoded \(String(describing: size)), listed \(width ?? "?")×\(height ?? "?")"
                                )
                            }
                        }
                    }
                }
            }
        }
        let failed = failures.withLock { $0 }
        #expect(failed.isEmpty, "\(failed.prefix(10))")
    }

    static func instant(_ iso: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: iso)?.timeIntervalSince1970
    }
}
