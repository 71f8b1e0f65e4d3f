import DeliveryKit
import Foundation
import OCEQCore
import OCEQLanguage
import OCEQShell
import Testing

@testable import AssetModule

@Suite("Asset commands on the sample channel", .serialized)
struct AssetCommandTests {
    /// One item of each blog type and an image, found by slug or listing.
    static let items: [(golden: String, select: String)] = [
        ("article", "list slug=spiced-maple-latte"),
        ("author", "list type=OCEGettingStartedAuthor order name limit 1"),
        ("topic", "list type=OCEGettingStartedTopic order name limit 1"),
        ("homepage", "list type=OCEGettingStartedHomePage limit 1"),
        ("image", "list type=Image order name limit 1"),
    ]

    @Test("show, fields and field on each blog type and an image", arguments: items)
    func showAndFields(golden: String, select: String) async {
        let field =
            switch golden {
            case "article":
                "field @1 author.avatar\nfield @1 author.name\nfield @1 published_date\nfield @1 article_content"
            case "author": "field @1 avatar.metadata.width"
            case "topic": "field @1 thumbnail"
            case "homepage": "field @1 topics.1.thumbnail\nfield @1 topics"
            default: "field @1 metadata --raw"
            }
        let result = await runScript("\(select)\nshow @1\nfields @1\n\(field)\n")
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        expectGolden(result.output, named: "\(golden).txt")
    }

    @Test("show --raw prints the JSON with the token redacted")
    func raw() async {
        let result = await runScript("list type=OCEGettingStartedTopic order name limit 1\nshow @1 --raw\n")
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("\"typeCategory\": \"ContentType\""))
        #expect(result.output.contains("channelToken=REDACTED"))
        #expect(!result.output.contains("935a30048d49b8479c9bc1577e392eba"))
    }

    @Test("under set format json the commands answer with JSON")
    func jsonFormat() async throws {
        let result = await runScript(
            "list slug=spiced-maple-latte\nset format ndjson\nfields @1\nset format json\ntypes\nfield @1 author\n")
        #expect(result.code == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let fieldLines = lines.filter { $0.hasPrefix("{\"name\":") }
        #expect(fieldLines.count == 7)
        #expect(
            fieldLines.first?.hasPrefix(#"{"name":"article_content","type":"largetext","value":"<!DOCTYPE html><p>"#)
                == true)
        #expect(result.output.contains(#"{"items":74,"kind":"digital asset","type":"Image"}"#))
        #expect(result.output.contains(#""name":"Priya Natarajan""#))
    }

    @Test("under csv the asset commands write their rows, show and field their data as field,value")
    func csvFormat() async throws {
        let result = await runScript(
            "list slug=spiced-maple-latte\nset format csv\ntypes\nfields @1\nshow @1\nfield @1 image_caption\n")
        #expect(result.code == 0, "\(result.errors)")
        #expect(result.output.contains("type,kind,items\r\nImage,digital asset,74\r\n"))
        #expect(result.output.contains("field,type,value\r\narticle_content,largetext,"))
        #expect(result.output.contains("\r\nimage_caption,text,Milk folding into espresso.\r\n"))
        #expect(result.output.contains("field,value\r\nid,CORE8C564D27A008AE7CD725776EB309BE9F\r\n"))
        #expect(result.output.contains("field,value\r\nvalue,Milk folding into espresso.\r\n"))
        // After the listing's table, no table text: no footers, no rules.
        let csv = result.output.split(separator: "type,kind,items", maxSplits: 1).last ?? ""
        #expect(!csv.contains("(7 fields, alphabetical)"))
        #expect(!csv.contains("-----"))
    }

    @Test("csv writes data, not the screen's shaping: whole field values, a category's parent id, sizes as numbers")
    func csvPlainCells() async throws {
        let result = await runScript(
            "list slug=spiced-maple-latte\nset format csv\nfields @1\ncategories CSG\nrenditions (first name=flat-white-12.jpg)\n"
        )
        #expect(result.code == 0, "\(result.errors)")
        let lines = result.output.components(separatedBy: "\r\n")
        // The article's body whole (the table's summary stops at an ellipsis and names its length).
        let body = try #require(lines.first { $0.hasPrefix("article_content,largetext,") })
        #expect(!result.output.contains("chars)"))
        #expect(!body.contains("…"))
        #expect(body.count > 1000)
        // A reference as show writes it in csv: the name and the id (the summary adds the type).
        #expect(lines.contains("author,reference,Priya Natarajan (COREAE3B9CE81F37BFC43211BFD542B4F9CB)"))
        // The tree as data: names without the screen's indent, each child beside its parent's id.
        #expect(lines.contains("category,api name,id,parent id"))
        #expect(lines.contains("Origins,csg-origins,A3F7CCBFD20D097359C3D353786158FF,"))
        #expect(
            lines.contains(
                "Ethiopia,csg-origins-africa-ethiopia,B5FD2A468E2E107F8BEBC6803B986E6D,49C83AC223783D342CFD084879D1ABEF"
            ))
        #expect(!lines.contains { $0.hasPrefix(" ") })
        // Renditions: width and height in columns of their own, bytes as a number, no words.
        #expect(lines.contains("name,type,format,width,height,bytes"))
        #expect(lines.contains("Thumbnail,responsiveimage,jpg,150,112,0"))
        #expect(!result.output.contains("not generated"))
        #expect(!result.output.contains(" × "))
    }

    @Test("under expanded a command's table is one record per row, under its title and above its footer")
    func expandedFormat() async throws {
        let result = await runScript("list slug=spiced-maple-latte\nset format expanded\nfields @1\n")
        #expect(result.code == 0, "\(result.errors)")
        let text = result.output
        #expect(
            text.contains(
                "Spiced Maple Latte (OCEGettingStartedArticle, CORE8C564D27A008AE7CD725776EB309BE9F)\n-[ RECORD 1 ]-\nfield  article_content\ntype   largetext\n"
            ))
        #expect(text.contains("-[ RECORD 7 ]-\nfield  topic\n"))
        #expect(text.hasSuffix("(7 fields, alphabetical)\n"))
    }

    @Test("a parenthesised first or list of one names the item")
    func selection() async {
        let result = await runScript(
            "fields (first type=OCEGettingStartedTopic order name)\nfield (list slug=spiced-maple-latte) author.name\n")
        #expect(result.code == 0, "\(result.errors)")
        #expect(
            result.output.contains("Brewing at Home (OCEGettingStartedTopic, CORE118E1B080FC00FDDF39E019435E84A97)"))
        #expect(result.output.contains("value  Priya Natarajan"))
        let many = await runScript("show (list type=OCEGettingStartedTopic)\n")
        #expect(many.code == 1)
        #expect(many.errors.contains("the selection matched 7 items; name one (first ... or @n)"))
    }

    @Test("renditions of an image")
    func renditions() async {
        let result = await runScript("list type=Image order name limit 1\nrenditions @1\nrenditions @1 Medium\n")
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(result.output, named: "renditions.txt")
    }

    @Test("types, with a count per type")
    func types() async {
        let result = await runScript("types\n")
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(result.output, named: "types.txt")
    }

    @Test("taxonomies and categories")
    func taxonomies() async {
        let result = await runScript("taxonomies\ncategories CSG\n")
        #expect(result.code == 0, "\(result.errors)")
        expectGolden(result.output, named: "taxonomies.txt")
    }

    @Test("categories takes a taxonomy's name as names are read elsewhere: a part of it does")
    func taxonomyByPartOfName() async {
        let result = await runScript("categories Caf\ncategories guide\ncategories csg\n")
        #expect(result.code == 0, "\(result.errors)")
        #expect(
            result.output.components(separatedBy: "Café Supremo Guide (DDD3FCE274FD927341A40AFE3EFE35E7)").count == 4)
    }

    static let errors: [(golden: String, script: String)] = [
        ("unknown-id", "show CORE00000000000000000000000000000000\n"),
        ("unknown-slug", "fields slug:no-such-item\n"),
        ("slug-without-prefix", "show spiced-maple-latte\n"),
        ("path-non-reference", "list slug=spiced-maple-latte\nfield @1 image_caption.text\n"),
        ("path-missing-field", "list slug=spiced-maple-latte\nfield @1 author.nickname\n"),
        ("path-near-standard-field", "list slug=spiced-maple-latte\nfield @1 author.nme\n"),
        ("path-near-custom-field", "list slug=spiced-maple-latte\nfield @1 author.avtar\n"),
        ("path-list-index", "list type=OCEGettingStartedHomePage limit 1\nfield @1 topics.name\n"),
        ("content-item-renditions", "list slug=spiced-maple-latte\nrenditions @1\n"),
        ("missing-rendition", "list type=Image order name limit 1\nrenditions @1 Huge\n"),
        ("unknown-taxonomy", "categories Nowhere\n"),
        ("unknown-option", "list slug=spiced-maple-latte\nshow @1 --rwa\n"),
    ]

    @Test("errors say what is missing and where a path stopped", arguments: errors)
    func errorCases(golden: String, script: String) async {
        let result = await runScript(script)
        #expect(result.code == 1)
        expectGolden(result.errors, named: "error-\(golden).txt")
    }

    @Test("every slug in an asset command's examples is an item of the sample channel")
    func exampleSlugsExist() async {
        var slugs: Set<String> = []
        for command in AssetModule.module.commands {
            for example in command.descriptor.examples {
                for word in example.split(separator: " ") where word.hasPrefix("slug:") { slugs.insert(String(word)) }
            }
        }
        #expect(!slugs.isEmpty)
        for slug in slugs.sorted() {
            let result = await runScript("get \(slug)\n")
            #expect(result.code == 0, "\(slug): \(result.errors)")
        }
    }

    @Test("every example of every asset command parses")
    func examplesParse() {
        let options = ParserOptions(commands: registry.parserCommands)
        for command in AssetModule.module.commands {
            for example in command.descriptor.examples {
                let parsed = Parser.parse(example, options: options)
                #expect(parsed.diagnostics.isEmpty, "\(example)")
            }
        }
    }
}

@Suite("Field values")
struct FieldValueTests {
    @Test("data types are inferred from values")
    func kinds() {
        #expect(FieldKind(.string("hi")).name == "text")
        #expect(FieldKind(.string("<p>hi</p>")).name == "largetext")
        #expect(FieldKind(.int(3)).name == "number")
        #expect(FieldKind(.double(2.5)).name == "decimal")
        #expect(FieldKind(.bool(true)).name == "boolean")
        #expect(FieldKind(["value": "2020-06-17T00:00:00.000-06:00", "timezone": "America/Denver"]).name == "datetime")
        #expect(FieldKind(["id": "CORE1", "type": "Author", "name": "Ana"]).name == "reference")
        #expect(FieldKind([["id": "CORE1"], ["id": "CORE2"]]).name == "reference list")
        #expect(FieldKind(["a", "b"]).name == "list of text")
        #expect(FieldKind(["fred": true]).name == "json")
        #expect(FieldKind(.null).name == "empty (null)")
    }

    @Test("dates read with offset and zone")
    func dates() {
        #expect(
            FieldText.date("2020-06-17T00:00:00.000-06:00", timezone: "America/Denver")
                == "2020-06-17 00:00:00 -06:00 (America/Denver)")
        #expect(FieldText.date("2021-03-01T10:00:00.000Z", timezone: "UTC") == "2021-03-01 10:00:00 UTC")
    }

    @Test("HTML becomes one-line excerpts without markup or control characters")
    func html() {
        let html = "<p>Start with <b>green</b> beans &amp; \u{1B}[31mwater</p><ul><li>one</li></ul>"
        #expect(!FieldText.summary(.string(html)).contains("\u{1B}"))
        #expect(FieldText.summary(.string(html)).hasPrefix("Start with green beans & [31mwater • one (HTML, "))
    }
}
