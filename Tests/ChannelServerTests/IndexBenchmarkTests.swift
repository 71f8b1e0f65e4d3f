import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

/// Timings of the index on a synthetic channel, printed, never asserted. Opt in with
/// `OCEQ_INDEX_BENCH=<items>` (e.g. 100000): `OCEQ_INDEX_BENCH=100000 swift test --filter IndexBenchmark`.
@Suite("index benchmark", .enabled(if: ProcessInfo.processInfo.environment["OCEQ_INDEX_BENCH"] != nil))
struct IndexBenchmarkTests {
    @Test("build, reopen and search a synthetic channel")
    func benchmark() throws {
        let count = Int(ProcessInfo.processInfo.environment["OCEQ_INDEX_BENCH"] ?? "") ?? 100_000
        var clock = ContinuousClock.now
        func lap() -> Double {
            let now = ContinuousClock.now
            let d = now - clock
            clock = now
            return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        }
        let items = IndexSyntheticItems.generate(count: count)
        print("generated \(items.count) items in \(format(lap())) ms")

        // OCEQ_INDEX_BENCH_DIR keeps the index between runs (then the "build" may be a reopen).
        let kept = ProcessInfo.processInfo.environment["OCEQ_INDEX_BENCH_DIR"]
        let directory = ScratchDirectory()
        defer { directory.remove() }
        let cache = kept ?? directory.path
        let built = try ChannelIndex(items: items, fingerprint: "bench", cacheDirectory: cache)
        print("index build: \(format(lap())) ms (cached: \(built.wasCached))")
        let size = (try? FileManager.default.attributesOfItem(atPath: built.path)[.size] as? Int) ?? 0
        print("index file: \(size / 1_048_576) MiB")
        for _ in 0..<2 {
            let reopened = try ChannelIndex(items: items, fingerprint: "bench", cacheDirectory: cache)
            print("reopen from cache: \(format(lap())) ms (cached: \(reopened.wasCached))")
        }
        let index = try ChannelIndex(items: items, fingerprint: "bench", cacheDirectory: cache)
        _ = lap()

        let runs = Int(ProcessInfo.processInfo.environment["OCEQ_INDEX_BENCH_RUNS"] ?? "") ?? 200
        guard runs > 0 else { return }
        let common = IndexSyntheticItems.word(0)
        let middle = IndexSyntheticItems.word(400)
        let cases: [(String, String?, String?, String)] = [
            ("typed eq", "type eq \"Article\" AND fields.topic eq \"topic-7\"", nil, ""),
            ("cross-type co (mid word)", "name co \"\(middle)\"", nil, ""),
            ("cross-type co (commonest word)", "name co \"\(common)\"", nil, ""),
            ("type eq + orderBy date desc", "type eq \"Article\"", nil, "fields.published:desc"),
            ("type eq, no order", "type eq \"Article\"", nil, ""),
            ("all items, orderBy name;createdDate:desc", nil, nil, "name;createdDate:desc"),
            ("default text", nil, middle, ""),
            ("number range", "type eq \"Product\" AND fields.price ge \"50\" AND fields.price lt \"60\"", nil, ""),
            ("date range", "fields.published ge \"2022-01-01\" AND fields.published lt \"2022-02-01\"", nil, ""),
            ("two-level", "type eq \"Article\" AND fields.author.name co \"\(middle)\"", nil, ""),
            ("multivalued co", "fields.keywords co \"\(middle)\"", nil, ""),
            (
                "mt phrase", "fields.title mt \"\(IndexSyntheticItems.word(3)) \(IndexSyntheticItems.word(5))*\"", nil,
                ""
            ),
            ("sm fuzzy", "name sm \"\(middle)x\"", nil, ""),
            ("NOT", "type eq \"Article\" AND NOT fields.topic eq \"topic-7\"", nil, ""),
            ("sw", "name sw \"\(middle.prefix(3))\"", nil, ""),
        ]
        for (label, q, text, order) in cases {
            let request = SearchRequest(
                query: try q.map(QueryParser.parse), defaultText: text, orderBy: try OrderByParser.parse(order),
                limit: 100, offset: 0, countTotal: true)
            _ = lap()
            let first = try index.search(request)
            let firstTime = lap()
            var times: [Double] = []
            for _ in 0..<runs {
                _ = lap()
                _ = try index.search(request)
                times.append(lap())
            }
            times.sort()
            func percentile(_ p: Double) -> String { format(times[min(times.count - 1, Int(Double(times.count) * p))]) }
            print(
                "\(label): total \(first.total), first \(format(firstTime)) ms, p50 \(percentile(0.5)) ms, "
                    + "p99 \(percentile(0.99)) ms, max \(format(times.last!)) ms")
        }
    }

    func format(_ ms: Double) -> String { String(format: "%.2f", ms) }
}

/// A deterministic synthetic channel: Articles, Authors, Products, Events and Images with text,
/// number, decimal, datetime, boolean, reference and multivalued fields.
enum IndexSyntheticItems {
    typealias Random = SeededGenerator

    static let syllables = [
        "ka", "lo", "mi", "ra", "te", "su", "vo", "ne", "bi", "do", "fa", "gu", "pe", "zi", "ch", "an",
    ]

    static func word(_ i: Int) -> String {
        var n = i + 17
        var s = ""
        repeat {
            s += syllables[n % syllables.count]
            n /= syllables.count
        } while n > 0
        return s
    }

    static func words(_ count: Int, _ random: inout Random) -> String {
        (0..<count).map { _ in word(random.skewed(5000)) }.joined(separator: " ")
    }

    /// A random instant in 2020-2024 as an exported date object.
    static func date(_ random: inout Random) -> JSON {
        let year = 2020 + random.below(5)
        let month = 1 + random.below(12)
        let day = 1 + random.below(28)
        let time = random.below(86_400)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let value =
            "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)).000Z"
        return ["value": .string(value), "timezone": "UTC"]
    }

    static func generate(count: Int) -> [ExportItem] {
        var random = Random(seed: 42)
        let authors = max(1, count / 20)
        let articles = count * 3 / 10
        let products = count / 4
        let events = count / 5
        var items: [ExportItem] = []
        items.reserveCapacity(count)
        func id(_ prefix: String, _ n: Int) -> String { prefix + String(format: "%032X", n) }
        for n in 0..<count {
            let created = date(&random)
            let kind: String
            var fields: [String: JSON] = [:]
            if n < authors {
                kind = "Author"
                fields = ["bio": .string(words(20, &random)), "age": .int(20 + random.below(60))]
            } else if n < authors + articles {
                kind = "Article"
                fields = [
                    "title": .string(words(6, &random)), "body": .string("<p>" + words(60, &random) + "</p>"),
                    "topic": .string("topic-\(random.below(50))"), "published": date(&random),
                    "minutes": .int(1 + random.below(30)), "rating": .double(Double(random.below(50)) / 10),
                    "featured": .bool(random.below(10) == 0),
                    "keywords": .array((0..<3).map { _ in .string(word(random.skewed(5000))) }),
                    "author": ["id": .string(id("CORE", random.below(authors))), "type": "Author"],
                    "related": .array(
                        (0..<2).map { _ in
                            ["id": .string(id("CORE", authors + random.below(articles))), "type": "Article"]
                        }),
                ]
            } else if n < authors + articles + products {
                kind = "Product"
                fields = [
                    "sku": .string("SKU-\(n)"), "price": .double(Double(random.below(100_000)) / 100),
                    "stock": .int(random.below(1000)), "released": date(&random),
                    "tags": .array((0..<2).map { _ in .string(word(random.skewed(5000))) }),
                    "maker": ["id": .string(id("CORE", random.below(authors))), "type": "Author"],
                ]
            } else if n < authors + articles + products + events {
                kind = "Event"
                fields = [
                    "city": .string(word(random.below(200))), "starts": date(&random),
                    "capacity": .int(10 + random.below(990)),
                    "speakers": .array(
                        (0..<3).map { _ in ["id": .string(id("CORE", random.below(authors))), "type": "Author"] }),
                ]
            } else {
                kind = "Image"
                fields = [
                    "mimeType": "image/jpeg", "fileGroup": "Images", "size": .int(random.below(5_000_000)),
                    "metadata": ["width": "1024", "height": "768"],
                ]
            }
            let isAsset = kind == "Image"
            items.append(
                ExportItem(
                    id: id(isAsset ? "CONT" : "CORE", n), type: kind,
                    typeCategory: isAsset ? "DigitalAssetType" : "ContentType",
                    name: words(3, &random) + (isAsset ? ".jpg" : ""), description: words(8, &random),
                    slug: "item-\(n)", language: isAsset ? nil : "en-US", translatable: !isAsset,
                    createdDate: created, updatedDate: created, fields: fields))
        }
        return items
    }
}

extension SeededGenerator {
    /// Skewed towards 0, so a few words are common and most are rare.
    mutating func skewed(_ n: Int) -> Int {
        let u = Double(next() % 1_000_000) / 1_000_000
        return min(n - 1, Int(u * u * u * Double(n)))
    }
}
