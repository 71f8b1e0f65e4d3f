// A channel export written by the tests to attack the client and the server (issue 10): the blog
// content model of the bundled sample, with items whose names are paths (`../../etc/x`, `/abs`),
// hold NUL, are 300 characters long or are Windows device names; field values carrying terminal
// escape sequences (window title, clipboard write, screen clear, cursor moves, C1 CSI), invalid
// UTF-8 and lone surrogates; a 10 MB text field; JSON nested deeper than any parser should follow;
// and a type with 500 items of large fields (a full page). Every command run over it must finish,
// write nothing outside its target folder, print no ESC byte that came from the content, and stay
// within bounded memory.

import Foundation

/// A hostile channel export on disk (`<folder>/contentexport`), usable as `oceq --url FOLDER`.
public struct HostileChannel: Sendable {
    /// The folder holding `contentexport/`.
    public var folder: String
    /// Topic ids, one per hostile name, in `names` order.
    public var topicIDs: [String]
    /// Article ids, one per hostile name, in `names` order.
    public var articleIDs: [String]
    /// Image ids, one per hostile name, in `names` order (each has a native file).
    public var imageIDs: [String]
    /// The article whose `article_content` is `hugeFieldBytes` long.
    public var hugeArticleID: String
    /// The article whose `image_caption` nests arrays `nestingDepth` deep.
    public var deepArticleID: String
    /// The article whose `image_caption` nests arrays `acceptedDepth` deep (under the parsers' cap).
    public var nestedArticleID: String
    /// The article whose file holds invalid UTF-8 and lone surrogate escapes.
    public var invalidUTF8ArticleID: String
    /// The home page item.
    public var homePageID: String

    /// The names every kind of item is given, one item each.
    public static let names: [String] = [
        "../../etc/x", "/abs/olute", "a\u{0}b", String(repeating: "n", count: 300), "CON", "nul.txt", "COM1.jpg",
        "aux", "..", ".", #"..\..\win\x"#, "trailing dot. ", "-rf", "~/home",
    ]

    /// Terminal control sequences hidden in field values: OSC 0 (window title), OSC 52 (clipboard
    /// write), screen clear and cursor home, SGR colour, cursor moves, 8-bit CSI, DCS, BEL/BS/CR.
    public static let escapes: [String] = [
        "\u{1B}]0;HOSTILE-TITLE\u{07}", "\u{1B}]52;c;SE9TVElMRS1DTElQ\u{07}", "\u{1B}[2J\u{1B}[H",
        "\u{1B}[31mRED\u{1B}[0m", "\u{1B}[10A\u{1B}[5C", "\u{9B}31m", "\u{1B}P+q544e\u{1B}\\", "\u{07}\u{08}\r",
        "\u{1B}]8;;http://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\",
    ]

    /// All the escapes in one string.
    public static var allEscapes: String { escapes.joined(separator: " ") }

    /// Bytes of the huge text field by default.
    public static let hugeFieldBytes = 10 * 1024 * 1024
    /// Depth of the nested JSON field.
    public static let nestingDepth = 100_000
    /// Depth of the nested field that parsers (capped at 512) still accept.
    public static let acceptedDepth = 480
    /// Authors in the large page.
    public static let authorCount = 500
    /// Bytes of each author's large field.
    public static let authorFieldBytes = 4 * 1024

    /// Writes the export into `folder` (created if needed); the huge article's text field is
    /// `hugeBytes` long (smaller values keep tests of a debug build quick).
    public static func write(to folder: String, hugeBytes: Int = hugeFieldBytes) throws -> HostileChannel {
        let root = folder + "/contentexport"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/ContentTypes", withIntermediateDirectories: true)
        let sampleTypes = OceqBinary.repositoryRoot.path + "/Samples/OCEGettingStarted/contentexport/ContentTypes"
        for type in [
            "Image", "OCEGettingStartedArticle", "OCEGettingStartedAuthor", "OCEGettingStartedHomePage",
            "OCEGettingStartedTopic",
        ] {
            try fm.copyItem(atPath: "\(sampleTypes)/\(type).json", toPath: "\(root)/ContentTypes/\(type).json")
        }
        try Data(#"{"export-version":"1.1","groups":1,"group0":[]}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/metadata.json"))

        let writer = ItemWriter(root: root)
        let escapes = allEscapes
        let imageIDs = try names.enumerated().map { index, name in
            try writer.image(index: index, name: name, description: "image \(index) \(escapes)")
        }
        let authorIDs = try (0..<authorCount).map { index in
            try writer.item(
                "OCEGettingStartedAuthor", prefix: "CORE", number: 0xA000 + index,
                name: "Author \(index) \(escapes)",
                description: String(repeating: "\(index) \(escapes) ", count: authorFieldBytes / 200),
                fields: #""avatar":\#(ItemWriter.reference(imageIDs[index % imageIDs.count], "Image"))"#)
        }
        let topicIDs = try names.enumerated().map { index, name in
            try writer.item(
                "OCEGettingStartedTopic", prefix: "CORE", number: 0xB000 + index, name: name + escapes,
                description: escapes,
                fields: #""thumbnail":\#(ItemWriter.reference(imageIDs[index], "Image"))"#)
        }
        func article(_ number: Int, name: String, caption: String, content: String) throws -> String {
            let topic = topicIDs[number % topicIDs.count]
            return try writer.item(
                "OCEGettingStartedArticle", prefix: "CORE", number: 0xC000 + number, name: name,
                description: "article \(number) \(escapes)",
                fields: """
                    "published_date":{"value":"2024-0\(number % 9 + 1)-01T10:00:00.000Z","timezone":"UTC"},\
                    "author":\(ItemWriter.reference(authorIDs[number], "OCEGettingStartedAuthor")),\
                    "topic":\(ItemWriter.reference(topic, "OCEGettingStartedTopic")),\
                    "image":\(ItemWriter.reference(imageIDs[number % imageIDs.count], "Image")),\
                    "image_caption":\(caption),"article_content":\(content)
                    """)
        }
        let html = "<p>\(escapes)</p><script>alert(1)</script><h2>\(escapes)</h2><a href=\"javascript:x\">x</a>"
        let articleIDs = try names.enumerated().map { index, name in
            try article(
                index, name: name + escapes, caption: ItemWriter.string(escapes), content: ItemWriter.string(html))
        }
        let chunk = "<p>\(escapes) lorem ipsum dolor sit amet</p>\n"
        let huge = String(repeating: chunk, count: hugeBytes / chunk.utf8.count + 1)
        let hugeArticleID = try article(
            names.count, name: "huge \(escapes)", caption: ItemWriter.string("huge"), content: ItemWriter.string(huge))
        let deep = String(repeating: "[", count: nestingDepth) + String(repeating: "]", count: nestingDepth)
        let deepArticleID = try article(
            names.count + 1, name: "deep \(escapes)", caption: deep,
            content: #"{"a":"#
                + String(repeating: #"{"a":"#, count: nestingDepth) + "1"
                + String(repeating: "}", count: nestingDepth + 1))
        let nested =
            String(repeating: "[", count: acceptedDepth) + ItemWriter.string(escapes)
            + String(repeating: "]", count: acceptedDepth)
        let nestedArticleID = try article(
            names.count + 3, name: "nested \(escapes)", caption: ItemWriter.string(nested), content: nested)
        // Raw invalid UTF-8 (a stray continuation byte, an overlong '/', a truncated sequence) and
        // lone surrogate escapes, in the name, description and a field.
        let invalid = "bad \u{FFFF}utf8 \\udc00 \\ud800x" + escapes
        let invalidArticleID = try article(
            names.count + 2, name: invalid, caption: ItemWriter.string(invalid), content: ItemWriter.string(invalid))
        try writer.corrupt(invalidArticleID, type: "OCEGettingStartedArticle")

        let homePageID = try writer.item(
            "OCEGettingStartedHomePage", prefix: "CORE", number: 0xD000, name: "HomePage",
            description: escapes,
            fields: """
                "company_name":\(ItemWriter.string("Hostile \(escapes)")),\
                "company_logo":\(ItemWriter.reference(imageIDs[0], "Image")),\
                "topics":[\(topicIDs.map { ItemWriter.reference($0, "OCEGettingStartedTopic") }.joined(separator: ","))],\
                "about_url":\(ItemWriter.string("http://about.example/\(escapes)")),\
                "contact_url":\(ItemWriter.string("javascript:\(escapes)"))
                """)
        return HostileChannel(
            folder: folder, topicIDs: topicIDs, articleIDs: articleIDs, imageIDs: imageIDs,
            hugeArticleID: hugeArticleID,
            deepArticleID: deepArticleID, nestedArticleID: nestedArticleID, invalidUTF8ArticleID: invalidArticleID,
            homePageID: homePageID)
    }
}

/// Writes item files of the hostile export.
private struct ItemWriter {
    let root: String

    /// An id like Oracle's: a prefix and 32 hex digits.
    static func id(prefix: String, number: Int) -> String {
        let hex = String(number, radix: 16, uppercase: true)
        return prefix + String(repeating: "0", count: 32 - hex.count) + hex
    }

    /// A JSON string literal (control characters escaped, as a real export would).
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A reference field value.
    static func reference(_ id: String, _ type: String) -> String {
        let category = type == "Image" ? "DigitalAssetType" : "ContentType"
        return #"{"id":"\#(id)","type":"\#(type)","typeCategory":"\#(category)","name":"ref"}"#
    }

    /// Writes one item file; returns its id.
    func item(
        _ type: String, prefix: String, number: Int, name: String, description: String, fields: String,
        extra: String = ""
    ) throws -> String {
        let id = ItemWriter.id(prefix: prefix, number: number)
        let slug = "slug-\(number)"
        let category = type == "Image" ? "DigitalAssetType" : "ContentType"
        let text = """
            {"id":"\(id)","type":"\(type)","typeCategory":"\(category)","name":\(ItemWriter.string(name)),\
            "description":\(ItemWriter.string(description)),"slug":"\(slug)","language":"en-US",\
            "translatable":true,"status":"published","isPublished":true,\
            "createdDate":{"value":"2024-01-01T00:00:00.000Z","timezone":"UTC"},\
            "updatedDate":{"value":"2024-01-02T00:00:00.000Z","timezone":"UTC"},\(extra)"fields":{\(fields)}}
            """
        let folder = root + "/ContentItems/" + type
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + id + ".json"))
        return id
    }

    /// An Image item named `name` whose native file (`files/<id>/native.txt`, since `name` may not
    /// be a file name) is text full of escapes.
    func image(index: Int, name: String, description: String) throws -> String {
        let id = ItemWriter.id(prefix: "CONT", number: 0xE000 + index)
        let files = root + "/ContentItems/Image/files/" + id
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        try Data("native \(index) \(HostileChannel.allEscapes)\n".utf8).write(
            to: URL(fileURLWithPath: files + "/native.txt"))
        return try item(
            "Image", prefix: "CONT", number: 0xE000 + index, name: name, description: description,
            fields: #""mimeType":"text/plain","fileGroup":"Documents","metadata":{}"#,
            extra: #""fileExtension":"txt","mimeType":"text/plain","fileGroup":"Documents","#)
    }

    /// Replaces each U+FFFF of an item file with invalid UTF-8 bytes.
    func corrupt(_ id: String, type: String) throws {
        let path = root + "/ContentItems/" + type + "/" + id + ".json"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let marker: [UInt8] = [0xEF, 0xBF, 0xBF]
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + 3 <= bytes.count, Array(bytes[index..<index + 3]) == marker {
                out += [0x80, 0xC0, 0xAF, 0xE2, 0x82]
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        try Data(out).write(to: URL(fileURLWithPath: path))
    }
}
