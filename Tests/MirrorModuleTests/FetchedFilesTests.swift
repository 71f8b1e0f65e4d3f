// Issue 18, point 2 for `mirror`: the summary lists the native files it fetched (relative to DIR),
// in the text and as `fetchedFiles` in JSON; a rerun fetches nothing and lists nothing.

import Foundation
import OCEQCore
import OCEQShell
import OCEQTestSupport
import Testing

@MainActor
@Suite("mirror: the summary lists the files fetched", .serialized)
struct FetchedFilesTests {
    @Test("text and json name each native file fetched; a rerun names none")
    func fetchedFiles() async throws {
        let connection = try openExport(repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path)
        let folder = temporaryFolder("fetched")
        defer { TestTemporary.remove(folder) }
        let target = folder + "/m"
        let first = await runScript("mirror \(target) (list type=Image order name limit 2)", on: connection)
        #expect(first.code == 0, "\(first.errors)")
        let fetched = first.output.split(separator: "\n").filter { $0.hasPrefix("fetched: ") }
        #expect(fetched.count == 2, "\(first.output)")
        for line in fetched {
            let relative = String(line.dropFirst("fetched: ".count))
            #expect(relative.hasPrefix("contentexport/ContentItems/Image/files/"), "\(relative)")
            #expect(FileManager.default.fileExists(atPath: target + "/" + relative), "\(relative)")
        }
        let again = await runScript(
            "set format json\nmirror \(target) (list type=Image order name limit 2)", on: connection)
        let summary = try JSON.parse(again.output)
        #expect(summary["fetchedFiles"]?.arrayValue?.isEmpty == true, "\(again.output)")
        #expect(summary["complete"]?.intValue == 2)
    }
}
