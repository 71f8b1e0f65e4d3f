// Every article body of the bundled sample channel rendered at 80 and 120 columns, plain (as piped
// output shows it), pinned in Golden/articles-80.txt and Golden/articles-120.txt.

import Foundation
import Testing

@testable import TerminalMedia

@Suite("The sample articles as terminal text")
struct SampleArticleTests {
    /// (name, id, HTML) of every sample article, by id.
    static func articles() throws -> [(String, String, String)] {
        let folder = sampleExport.appendingPathComponent("ContentItems/OCEGettingStartedArticle")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        return try files.map { file in
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let item = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let fields = try #require(item["fields"] as? [String: Any])
            return (
                item["name"] as? String ?? "", item["id"] as? String ?? "", fields["article_content"] as? String ?? ""
            )
        }
    }

    @Test("all sample articles at 80 and 120 columns", arguments: [80, 120])
    func golden(width: Int) throws {
        let articles = try SampleArticleTests.articles()
        #expect(articles.count == 60)
        var out = ""
        for (name, id, html) in articles {
            let text = RichText.render(html, options: RichTextOptions(width: width))
            #expect(text.split(separator: "\n").allSatisfy { TerminalCells.width(of: $0) <= width }, "\(id)")
            out += "=== \(name) (\(id))\n" + text
        }
        expectGolden(out, named: "articles-\(width).txt")
    }

    @Test("styled renderings of the samples carry only our own sequences")
    func styled() throws {
        for (_, id, html) in try SampleArticleTests.articles() {
            let text = RichText.render(html, options: RichTextOptions(width: 80, styles: true, hyperlinks: true))
            #expect(
                !withoutOwnSequences(text).unicodeScalars.contains { TerminalCells.isControl($0) && $0 != "\n" },
                "\(id)")
        }
    }
}
