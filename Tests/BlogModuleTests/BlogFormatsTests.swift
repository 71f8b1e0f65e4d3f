// Issue 18, point 2 for the blog: `topics` keeps its article counts in csv, json and ndjson, and
// `articles` carries the columns its screen shows (title, author by name, posted date).

import Foundation
import OCEQCore
import OCEQShell
import Testing

@MainActor
@Suite("Blog data in every format")
struct BlogFormatsTests {
    @Test("topics in csv and ndjson carry each topic's article count")
    func topicCounts() async throws {
        let shell = Shell()
        _ = await shell.run("set format csv")
        let csv = await shell.run("topics")
        #expect(csv.code == 0, "\(csv.errors)")
        let lines = csv.output.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,name,articles,description")
        #expect(lines[1].contains(",Brewing at Home,10,"), "\(lines[1])")
        _ = await shell.run("set format ndjson")
        let ndjson = await shell.run("topics")
        let first = try JSON.parse(String(ndjson.output.split(separator: "\n")[0]))
        #expect(first["articles"]?.intValue == 10)
        #expect(first["name"]?.stringValue == "Brewing at Home")
    }

    @Test("articles in csv: id, name, author by name, published_date, description")
    func articleColumns() async throws {
        let shell = Shell()
        _ = await shell.run("topics")
        _ = await shell.run("set format csv")
        let csv = await shell.run("articles @1")
        let lines = csv.output.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,name,author,published_date,description")
        #expect(!lines[1].contains("COREAE3B") && !lines[1].contains("\"id\""), "the author by name: \(lines[1])")
    }

    @Test("the author list in csv has no type column: every row is an author")
    func authorColumns() async throws {
        let shell = Shell()
        _ = await shell.run("set format csv")
        let csv = await shell.run("author")
        #expect(csv.code == 0, "\(csv.errors)")
        let lines = csv.output.components(separatedBy: "\r\n")
        #expect(lines[0] == "id,name,description")
        #expect(lines[1].contains(",Alex Morgan,"), "\(lines[1])")
        #expect(!csv.output.contains("OCEGettingStartedAuthor"))
    }
}
