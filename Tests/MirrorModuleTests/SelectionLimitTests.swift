// A selection's `limit` (and `first`) bounds what a mirror lists, as it bounds a `download`: a
// QA run found `mirror DIR (list type=Image limit 2)` writing all 74 images.

import DeliveryKit
import Foundation
import OCEQCore
import OCEQShell
import Testing

@testable import MirrorModule

@Suite("mirror: a selection's limit")
struct SelectionLimitTests {
    @Test("list ... limit N mirrors N items; first mirrors one")
    func limitAndFirst() async throws {
        let source = try openExport(ResumeAndBadInputTests.samplePath)
        for (selection, count) in [("(list type=Image order name limit 2)", 2), ("(first type=Image)", 1)] {
            let folder = temporaryFolder("limit")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let run = await runScript("mirror \"\(folder)\" \(selection)", on: source)
            #expect(run.code == 0, "\(run.output)\(run.errors)")
            #expect(run.output.contains("mirrored \(count) item"), "\(selection): \(run.output)")
            let images = filesUnder(folder + "/contentexport/ContentItems/Image").filter { $0.hasSuffix(".json") }
            #expect(images.count == count, "\(selection): \(images)")
        }
    }

    @Test("a first that finds nothing is an error and writes nothing; a list that finds nothing is a success")
    func firstFindsNothing() async throws {
        let source = try openExport(ResumeAndBadInputTests.samplePath)
        let base = temporaryFolder("nothing")
        defer { try? FileManager.default.removeItem(atPath: base) }
        // It wrote an empty export and said "mirrored 0 items".
        let first = await runScript("mirror \"\(base)/first\" (first type=Image name=nope)", on: source)
        #expect(first.code == 1)
        #expect(first.errors.contains("error: the selection matched no item"), "\(first.errors)")
        #expect(!FileManager.default.fileExists(atPath: base + "/first"))
        // A list matching nothing, with limit 1 too (it was taken for a first), stays a success.
        for selection in ["(list type=Image name=nope)", "(list type=Image name=nope limit 1)"] {
            let list = await runScript("mirror \"\(base)/list\" \(selection)", on: source)
            #expect(list.code == 0, "\(selection): \(list.errors)")
            #expect(list.output.contains("mirrored 0 items"), "\(selection): \(list.output)")
        }
    }

    @Test("mirror to DIR is mirror DIR, as download says 'to DIR'")
    func toFolder() async throws {
        let source = try openExport(ResumeAndBadInputTests.samplePath)
        let base = temporaryFolder("to")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let run = await runScript("mirror to \"\(base)/m\" (first type=OCEGettingStartedTopic)", on: source)
        #expect(run.code == 0, "\(run.output)\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: base + "/m/contentexport/metadata.json"))
        #expect(!FileManager.default.fileExists(atPath: base + "/to"))
        #expect(
            run.output.contains("1 of the items is not in the selection but referred to by it"),
            "a topic refers to its image: \(run.output)")
    }
}

@Suite("mirror: sizes")
struct MirrorSizeTests {
    @Test(
        "sizes read as download reads them: powers of 1024, KB and MB",
        arguments: [
            (Int64(812), "812 B"), (Int64(92_988), "90.8 KB"), (Int64(5_452_595), "5.2 MB"),
            (Int64(1_048_576), "1.0 MB"),
        ])
    func units(bytes: Int64, text: String) {
        #expect(ByteCount.text(bytes) == text)
        let summary = MirrorSummary(target: "out", filesDownloaded: 1, bytes: bytes)
        #expect(summary.text.contains("(1 fetched, 0 already complete, \(text)) to out in "), "\(summary.text)")
    }
}

@Suite("mirror: JSON summary")
struct MirrorJSONSummaryTests {
    @Test("under set format json the summary is one JSON object, as download's is")
    func json() async throws {
        let source = try openExport(ResumeAndBadInputTests.samplePath)
        let folder = temporaryFolder("json")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await runScript("set format json\nmirror \"\(folder)\" (first type=Image)", on: source)
        #expect(run.code == 0, "\(run.errors)")
        let object = try JSON.parse(run.output)
        #expect(object["items"] == .int(1))
        #expect(object["fetched"] == .int(1))
        #expect(object["failures"] == .array([]))
        #expect(!run.output.contains("mirrored"))
    }
}
