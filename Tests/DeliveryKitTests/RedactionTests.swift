import DeliveryKit
import Testing

@Suite("Values that carry links print without the channel token")
struct LinkRedactionTests {
    static let item: JSON = [
        "id": "CORE1", "type": "Article", "name": "A",
        "links": [["href": "https://h/content/published/api/v1.1/items/CORE1?channelToken=s3cret", "rel": "self"]],
    ]

    @Test("an asset prints its id, type and name only; a link shows its href redacted")
    func printing() throws {
        let asset = try Asset(json: Self.item)
        #expect(String(reflecting: asset) == "Asset(CORE1, Article, \"A\")")
        #expect(!"\(asset)".contains("s3cret"))
        var dumped = ""
        dump(asset, to: &dumped)
        #expect(!dumped.contains("s3cret"))
        let link = Link(href: "https://h/x?a=1&channelToken=s3cret", rel: "self")
        #expect(!"\(link)".contains("s3cret"))
        #expect("\(link)".contains("channelToken=REDACTED"))
    }
}
