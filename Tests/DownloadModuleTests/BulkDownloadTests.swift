import DeliveryKit
import Foundation
import OCEQCore
import Testing

/// `download` of whole selections of a synthetic channel while the server misbehaves on purpose:
/// every file must end complete and byte-identical to the export's, nothing else may be left in
/// the folder, and a second run must transfer nothing.
@Suite("download: bulk under injected faults", .serialized)
struct BulkDownloadTests {
    /// Checks `folder` against `export`: the manifest lists every asset once, each listed file holds
    /// exactly the asset's bytes, and the folder holds those files and the manifest, nothing else.
    func verify(_ folder: String, _ export: SyntheticExport, _ pass: String) throws {
        let entries = try manifestFiles(folder)
        #expect(entries.count == export.files.count, "\(pass): one manifest entry per asset")
        let byId = Dictionary(uniqueKeysWithValues: export.files.map { ($0.id, $0) })
        var names: [String] = []
        for entry in entries {
            let id = try #require(entry["assetId"]?.stringValue)
            let name = try #require(entry["file"]?.stringValue)
            let file = try #require(byId[id], "\(pass): \(id) is an asset of the export")
            names.append(name)
            let bytes = fileBytes(folder + "/" + name)
            #expect(bytes == file.bytes, "\(pass): \(name) holds the bytes of \(id)")
            #expect(entry["size"]?.intValue == file.bytes.count)
            #expect(Checksum.fnv1a(bytes ?? []) == Checksum.fnv1a(file.bytes))
        }
        #expect(Set(entries.compactMap { $0["assetId"]?.stringValue }) == Set(byId.keys))
        #expect(folderEntries(folder) == (names + [".oceq-manifest.json"]).sorted(), "\(pass): no stray files")
        for name in names {
            #expect(!name.contains("/") && !name.hasPrefix("."), "\(pass): \(name) is a plain name")
        }
    }

    @Test("200 files under 503s, resets, truncations and 429s all end complete; a rerun transfers nothing")
    func twoHundred() async throws {
        let export = try SyntheticExport(count: 200)
        defer { export.remove() }
        let server = try DownloadServer(
            export: export.path,
            faults: "503@6%:retry-after=0,reset@6%:after=120,truncate@6%,429@6%:retry-after=0", seed: 11)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let first = try await server.run("download (list type=File) to $1 --concurrency 8", arguments: [folder])
        #expect(first.code == 0, "\(first.output)\(first.errors)")
        #expect(first.output.contains("download to \(folder): 200 items\n  downloaded  200 files, "))
        let statuses = server.takeAssetStatuses()
        for status in [503, 429, 206] { #expect(statuses.contains(status), "a \(status) happened") }
        try verify(folder, export, "first run")
        // Repeated and hostile names were made unique and safe.
        let names = try manifestFiles(folder).compactMap { $0["file"]?.stringValue }
        #expect(names.contains("shared name.bin") && names.contains("shared name (2).bin"))
        #expect(names.contains("_.._escape.bin") && names.contains("_etc_passwd") && names.contains("_CON"))

        let second = try await server.run("download (list type=File) to $1", arguments: [folder])
        #expect(second.code == 0, "\(second.output)\(second.errors)")
        #expect(
            second.output
                == "download to \(folder): 200 items\n  downloaded  0 files, 0 B\n  skipped     200 files already complete\n"
        )
        let rerun = server.takeAssetStatuses()
        #expect(rerun.filter { $0 == 304 }.count == 200)
        #expect(!rerun.contains { $0 == 200 || $0 == 206 }, "the rerun transferred no file")
        try verify(folder, export, "rerun")
    }

    @Test("chaos: 1 000 files with about 10 % of requests faulted end complete; a second run transfers 0 bytes")
    func thousand() async throws {
        let export = try SyntheticExport(count: 1000)
        defer { export.remove() }
        let server = try DownloadServer(
            export: export.path,
            faults: "503@3%:retry-after=0,reset@2%:after=200,truncate@3%,429@2%:retry-after=0", seed: 29)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let first = try await server.run("download (list type=File) to $1 --concurrency 16", arguments: [folder])
        #expect(first.code == 0, "\(first.output)\(first.errors)")
        let statuses = server.takeAssetStatuses()
        let faulted = statuses.filter { $0 == 503 || $0 == 429 }.count
        #expect(faulted > 0 && statuses.contains(206))
        try verify(folder, export, "chaos run")

        let second = try await server.run("download (list type=File) to $1 --concurrency 16", arguments: [folder])
        #expect(second.code == 0)
        #expect(second.output.contains("downloaded  0 files, 0 B\n  skipped     1000 files already complete\n"))
        #expect(!server.takeAssetStatuses().contains { $0 == 200 || $0 == 206 })
        try verify(folder, export, "second run")
    }

    @Test("--force downloads complete files again; a file changed on disk is downloaded again")
    func forceAndChanged() async throws {
        let export = try SyntheticExport(count: 12)
        defer { export.remove() }
        let server = try DownloadServer(export: export.path)
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try await server.run("download (list type=File) to $1", arguments: [folder]).code == 0)
        _ = server.takeAssetStatuses()

        let forced = try await server.run("download (list type=File) to $1 --force", arguments: [folder])
        #expect(forced.output.contains("downloaded  12 files"))
        #expect(server.takeAssetStatuses().filter { $0 == 200 }.count == 12)

        let victim = try #require(try manifestFiles(folder).first?["file"]?.stringValue)
        try Data("short".utf8).write(to: URL(fileURLWithPath: folder + "/" + victim))
        let repaired = try await server.run("download (list type=File) to $1", arguments: [folder])
        #expect(repaired.output.contains("downloaded  1 file, "))
        #expect(repaired.output.contains("skipped     11 files already complete"))
        try verify(folder, export, "after repair")
    }
}

/// FNV-1a, 64 bits: a checksum of a file's bytes.
enum Checksum {
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }
}
