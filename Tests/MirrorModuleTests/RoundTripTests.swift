// The acceptance test of issue 7 part 4: mirror the sample channel, serve the mirror, and compare
// every `/items` page (default order and fixed orders, with and without `fields=all`) and every
// `/items/{id}` (plain and `expand=all`) and `/items/{id}/variations/language` with the source's,
// host names and ports normalised.

import DeliveryKit
import Foundation
import OCEQCore
import OCEQShell
import Testing

@Suite("mirror → serve round trip of the sample channel", .serialized)
struct RoundTripTests {
    static let samplePath = repositoryRoot.appendingPathComponent("Samples/OCEGettingStarted").path

    /// The page requests compared: every page of each (limit 50, so several pages each).
    static let listings: [(String, ListAssets)] = [
        ("default order", DeliveryAPI.listAssets().limit(50)),
        ("default order, fields=all", DeliveryAPI.listAssets().fields(.all).limit(50)),
        ("name asc, fields=all", DeliveryAPI.listAssets().fields(.all).order(.name(.asc)).limit(50)),
        (
            "updatedDate desc, fields=all",
            DeliveryAPI.listAssets().fields(.all).order(.updatedDate(.desc)).limit(50)
        ),
        (
            "articles by published_date desc",
            DeliveryAPI.listAssets().query(rawText: #"(type eq "OCEGettingStartedArticle")"#).fields(.all)
                .order(.field("fields.published_date", .desc)).limit(25)
        ),
        ("expand=all", DeliveryAPI.listAssets().fields(.all).expand(.all).limit(50)),
    ]

    @Test("serving the mirror answers every /items page, /items/{id} and variation set like the source")
    func roundTrip() async throws {
        let folder = temporaryFolder("roundtrip")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try openExport(Self.samplePath)
        // An item the channel no longer has, from an earlier mirror: a full mirror removes it.
        let stale = folder + "/out/contentexport/ContentItems/Image"
        try FileManager.default.createDirectory(atPath: stale + "/files/CONTSTALE", withIntermediateDirectories: true)
        try Data(#"{"id":"CONTSTALE","type":"Image","name":"old.jpg","fields":{}}"#.utf8).write(
            to: URL(fileURLWithPath: stale + "/CONTSTALE.json"))
        try Data("old".utf8).write(to: URL(fileURLWithPath: stale + "/files/CONTSTALE/old.jpg"))

        // A taxonomy the channel no longer has: removed too.
        let taxonomies = folder + "/out/contentexport/Taxonomies"
        try FileManager.default.createDirectory(atPath: taxonomies, withIntermediateDirectories: true)
        try Data(#"{"id":"00000000000000000000000000000000","name":"Gone","categories":[]}"#.utf8).write(
            to: URL(fileURLWithPath: taxonomies + "/00000000000000000000000000000000.json"))

        let run = await runScript("mirror \"\(folder)/out\"", on: source)
        #expect(run.code == 0, "\(run.output)\(run.errors)")
        #expect(run.output.contains("mirrored 146 items (146 written, 0 unchanged), 74 files (74 fetched"))
        #expect(run.output.contains("removed 1 item no longer on the channel"))
        #expect(run.output.contains("1 taxonomy with its categories\nremoved 1 taxonomy no longer on the channel"))
        #expect(filesUnder(taxonomies) == ["DDD3FCE274FD927341A40AFE3EFE35E7.json"])
        #expect(!FileManager.default.fileExists(atPath: stale + "/files/CONTSTALE"))

        let mirror = try openExport(folder + "/out")
        #expect(mirror.warnings.isEmpty, "\(mirror.warnings)")

        var ids: [String] = []
        for (label, request) in Self.listings {
            var sourcePages = source.client.pages(request).makeAsyncIterator()
            var offset = 0
            while let page = try await sourcePages.next() {
                let paged = request.starting(at: offset)
                let expected = try await source.client.fetchJSON(paged)
                let actual = try await mirror.client.fetchJSON(paged)
                let difference = firstDifference(normalizingHosts(actual), normalizingHosts(expected))
                #expect(difference == nil, "\(label), offset \(offset): \(difference ?? "")")
                if label == "default order" { ids += page.items.map(\.id) }
                offset += page.count
            }
            #expect(offset > 0, "\(label) listed nothing")
        }
        #expect(ids.count == 146)

        var differing: [String] = []
        for id in ids {
            let reads: [any DeliveryRequest] = [
                DeliveryAPI.readAsset(id: id), DeliveryAPI.readAsset(id: id).expand(.all),
                DeliveryAPI.listVariations(id: id, type: "language"),
            ]
            for request in reads {
                let expected = try await source.client.fetchJSON(request)
                let actual = try await mirror.client.fetchJSON(request)
                if let difference = firstDifference(normalizingHosts(actual), normalizingHosts(expected)) {
                    differing.append(id + ": " + difference)
                }
            }
        }
        #expect(differing.isEmpty, "items that differ: \(differing.prefix(5))")

        // The taxonomies and their categories: listed, read, searched (with children inlined) alike.
        let taxonomy = "DDD3FCE274FD927341A40AFE3EFE35E7"
        var taxonomyReads: [any DeliveryRequest] = [
            DeliveryAPI.listTaxonomies(), DeliveryAPI.readTaxonomy(id: taxonomy),
            DeliveryAPI.listTaxonomyCategories(taxonomyId: taxonomy),
            DeliveryAPI.listTaxonomyCategories(taxonomyId: taxonomy).expand(.all),
        ]
        let categories = try await source.client.fetch(DeliveryAPI.listTaxonomyCategories(taxonomyId: taxonomy))
        #expect(categories.items.count == 7)
        for category in categories.items {
            taxonomyReads.append(DeliveryAPI.readTaxonomyCategory(taxonomyId: taxonomy, categoryId: category.id))
        }
        for request in taxonomyReads {
            let expected = try await source.client.fetchJSON(request)
            let actual = try await mirror.client.fetchJSON(request)
            let difference = firstDifference(normalizingHosts(actual), normalizingHosts(expected))
            #expect(difference == nil, "\(request): \(difference ?? "")")
        }

        // The renditions are there (made by the server from the mirrored native files) and match.
        let image = try await mirror.client.fetchJSON(
            DeliveryAPI.listAssets().query(rawText: #"(type eq "Image")"#).fields(.all).limit(1))
        let renditions = image["items"]?.arrayValue?.first?["fields"]?["renditions"]?.arrayValue ?? []
        #expect(renditions.count == 4)

        // The native files are byte for byte the source's.
        let sourceFiles = filesUnder(Self.samplePath + "/contentexport").filter { $0.contains("/files/") }
        let mirroredFiles = filesUnder(folder + "/out/contentexport").filter { $0.contains("/files/") }
        #expect(sourceFiles == mirroredFiles)
        for file in sourceFiles {
            let a = FileManager.default.contents(atPath: Self.samplePath + "/contentexport/" + file)
            let b = FileManager.default.contents(atPath: folder + "/out/contentexport/" + file)
            #expect(a != nil && a == b, "\(file)")
        }

        // A selection over several types (its hits come without fields, as OCM sends them): each item is
        // read whole, so its files are the full mirror's.
        let selection = await runScript(
            "mirror \"\(folder)/selection\" (list taxonomies.categories.nodes.id=Methods)", on: source)
        #expect(selection.code == 0, "\(selection.output)\(selection.errors)")
        let selected = filesUnder(folder + "/selection/contentexport/ContentItems").filter {
            $0.hasSuffix(".json") && !$0.hasPrefix("VariationSets")
        }
        #expect(selected.count >= 2)
        for file in selected {
            let a = FileManager.default.contents(atPath: folder + "/selection/contentexport/ContentItems/" + file)
            let b = FileManager.default.contents(atPath: folder + "/out/contentexport/ContentItems/" + file)
            #expect(a != nil && a == b, "\(file)")
        }

        // No file holds the token.
        for file in filesUnder(folder + "/out") {
            let bytes = FileManager.default.contents(atPath: folder + "/out/" + file) ?? Data()
            #expect(bytes.range(of: Data(sampleToken.utf8)) == nil, "\(file) holds the channel token")
        }
    }
}
