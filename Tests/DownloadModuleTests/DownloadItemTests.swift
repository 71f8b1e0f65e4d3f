import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQTestSupport
import Testing

@testable import DownloadModule

/// `DownloadItem`: an item of a selection's page read in place must be the item its `Asset` gives, on
/// every item the repository's fixtures, sample export, fuzz corpus and recorded OCM answers hold, and
/// on hand-made items that bend each rule `Asset` reads by.
@Suite("Download item read in place")
struct DownloadItemTests {
    /// Every JSON file of the repository's corpus (pages of items, single items, other answers).
    static let files = RepositoryCorpus.files { $0.hasSuffix(".json") }

    /// The read as a download reads a page: its members skipped as the download's client skips them.
    @MainActor static let skipping = DownloadTargets.unreadMembers

    /// The page `{"items":[...]}` holding `items` (JSON texts) as they are.
    static func page(_ items: [[UInt8]]) -> [UInt8] {
        var bytes = Array(#"{"items":["#.utf8)
        for (position, item) in items.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += item
        }
        return bytes + Array("]}".utf8)
    }

    /// An item, or the description of the error that refused it.
    enum Outcome: Equatable {
        case success(DownloadItem)
        case failure(String)
    }

    /// Element `position` of `elements` read in place, and built then decoded as an `Asset`.
    static func bothWays(_ elements: JSONDeferredElements, _ position: Int) -> (read: Outcome, built: Outcome) {
        let path = "items[\(position)]"
        let read: Outcome
        do {
            read = .success(try elements.read(position) { reader in try DownloadItem(reading: &reader, path: path) })
        } catch {
            read = .failure("\(error)")
        }
        let built: Outcome
        do {
            built = .success(DownloadItem(try Asset(json: try elements.element(position), path: path)))
        } catch {
            built = .failure("\(error)")
        }
        return (read, built)
    }

    /// Compares every element of `page` both ways; how many were items.
    @discardableResult
    static func compare(page: [UInt8], skipping: [String], _ label: String) throws -> Int {
        let elements = try JSON.parse(page, skipping: skipping, deferring: "items").1
        var items = 0
        for position in 0..<elements.count {
            let (read, built) = bothWays(elements, position)
            #expect(read == built, "\(label), item \(position)")
            if case .success = read { items += 1 }
        }
        return items
    }

    @Test("every item of the repository's JSON reads as its Asset gives it", arguments: files)
    @MainActor func sameAsAsset(file: String) throws {
        let bytes = try #require(RepositoryCorpus.contents(file))
        guard let document = try? JSON.parse(bytes) else { return }
        // A page of items as it came, read in place; a single item (an object with an id) as the one
        // item of a page.
        if document["items"]?.arrayValue != nil {
            try Self.compare(page: bytes, skipping: Self.skipping, file)
            try Self.compare(page: bytes, skipping: [], file + " (nothing skipped)")
        }
        if document["id"] != nil {
            try Self.compare(page: Self.page([bytes]), skipping: Self.skipping, file + " (as an item)")
        }
    }

    @Test("the repository's own files hold digital assets with renditions (the comparison above is not vacuous)")
    func corpusHasRenditions() throws {
        var renditions = 0
        var assets = 0
        // The repository's own folders: ../shared is not there in a clean clone.
        for file in Self.files where !file.hasPrefix("../") {
            let bytes = try #require(RepositoryCorpus.contents(file))
            guard let document = try? JSON.parse(bytes) else { continue }
            let page = document["items"]?.arrayValue != nil ? bytes : document["id"] != nil ? Self.page([bytes]) : nil
            guard let page, let elements = try? JSON.parse(page, deferring: "items").1 else { continue }
            for position in 0..<elements.count {
                guard case .success(let item) = Self.bothWays(elements, position).read else { continue }
                if item.isDigitalAsset { assets += 1 }
                renditions += item.renditions.count
            }
        }
        #expect(Self.files.count >= 50)
        #expect(assets >= 20)
        #expect(renditions >= 24)
    }

    @Test("hand-made items that bend Asset's rules read the same both ways")
    func bentRules() throws {
        let digital = #""typeCategory":"DigitalAssetType","type":"Image""#
        let items = [
            // Repeated members: the last counts, whatever its kind.
            #"{"id":"CONT1",\#(digital),"name":"a","name":"b","fields":{"size":1},"fields":{"size":"22"}}"#,
            #"{"id":"CONT2",\#(digital),"fields":{"size":3},"fields":[1]}"#,
            #"{"id":"CONT3",\#(digital),"name":7,"fileExtension":null,"fields":{"size":4.0,"fileGroup":"Images"}}"#,
            // Renditions from fields, else the top-level renditions.items; apiName for a missing name.
            #"{"id":"CONT4",\#(digital),"fields":{},"renditions":{"items":[{"apiName":"Small","formats":[{"format":"jpg","size":5}]}]}}"#,
            #"{"id":"CONT5",\#(digital),"fields":{"renditions":"none"},"renditions":{"items":[{"name":"Large"}],"items":7}}"#,
            #"{"id":"CONT6",\#(digital),"fields":{"renditions":[{"name":"M","name":null,"apiName":"m2","formats":[{"format":"webp"},{"size":1},{"format":1},7,{"format":"png","size":"9"}]},3,{"type":"x"}]}}"#,
            // Kinds: no category and type DigitalAsset; a content item with renditions among its fields.
            #"{"id":"CONT7","type":"DigitalAsset","fields":{"advancedVideoInfo":{"provider":"x"},"renditions":[{"name":"T"}]}}"#,
            #"{"id":"CORE8","type":"Article","typeCategory":"ContentType","fields":{"size":5,"renditions":[{"name":"T"}]}}"#,
            #"{"id":"CONT9",\#(digital),"fields":{"advancedVideoInfo":null,"fileGroup":"Videos"},"fileGroup":"Files"}"#,
            // Escaped member names, escaped values.
            #"{"\u0069d":"CONT10",\#(digital),"n\u0061me":"caf\u00e9 \"q\"","fields":{"size":-0}}"#,
            // Not items: no id, an id of another kind, not an object.
            #"{"name":"x"}"#, #"{"id":7}"#, #"{"id":null,"id":"late"}"#, #"[1,2]"#, "3", #""CONT11""#,
        ]
        let page = Self.page(items.map { Array($0.utf8) })
        let read = try Self.compare(page: page, skipping: [], "bent rules")
        #expect(read == 11)
    }

    @Test("a malformed item is refused read in place as when built, at the same offset")
    func malformedRefused() throws {
        for item in [
            #"{"id":"A","fields":{"renditions":[{"name":"M",}]}}"#, #"{"id":"A","x":[1 2]}"#,
            #"{"id":"A","name":"\x"}"#, #"{"id":"A" "name":"b"}"#, #"{"id":"A","fields":{"size":01}}"#,
        ] {
            let elements = try JSON.parse(Self.page([Array(item.utf8)]), deferring: "items").1
            let (read, built) = Self.bothWays(elements, 0)
            guard case .failure = read else {
                Issue.record("read in place accepts \(item)")
                continue
            }
            #expect(read == built, "\(item)")
        }
    }
}
