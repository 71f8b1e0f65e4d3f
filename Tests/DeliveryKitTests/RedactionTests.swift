import DeliveryKit
import OCEQCore
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

@Suite("The redactor catches every encoding of a secret on its own")
struct RedactorFormsTests {
    @Test("a token seen only percent-encoded, as a query value or a path segment, is hidden")
    func encodedFormsAlone() {
        let redactor = Redactor(secrets: ["tok+AUDIT/5e8b2f"])
        // A path segment keeps '+' and encodes '/': the form an item id typed as the token takes.
        #expect(
            redactor.redact("GET http://h/items/tok+AUDIT%2F5e8b2f?expand=all")
                == "GET http://h/items/REDACTED?expand=all")
        #expect(redactor.redact("q=tok%2BAUDIT%2F5e8b2f") == "q=REDACTED")
        #expect(redactor.redact("no item tok+AUDIT/5e8b2f") == "no item REDACTED")
    }

    @Test("a token shorter than 8 characters is hidden where it stands alone, never inside a word")
    func shortTokensWholeWordsOnly() {
        let one = Redactor(secrets: ["t"])
        #expect(
            one.redact("SSL certificate problem for https://h/x?channelToken=t&limit=1 (token t)")
                == "SSL certificate problem for https://h/x?channelToken=REDACTED&limit=1 (token REDACTED)")
        let word = Redactor(secrets: ["test"])
        #expect(word.redact("tested, test-driven: test.") == "tested, REDACTED-driven: REDACTED.")
        #expect(word.redact("attest contest") == "attest contest")
        let long = Redactor(secrets: ["s3cr3t-token"])
        #expect(long.redact("xs3cr3t-tokeny") == "xREDACTEDy", "8 or more: hidden wherever it is")
    }
}
