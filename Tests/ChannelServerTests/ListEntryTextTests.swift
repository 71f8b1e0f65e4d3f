import Foundation
import OCEQCore
import Testing

@testable import ChannelServer

/// A fields=ALL page copies each item's stored fields into its answer instead of building and
/// writing them again (`DeliveryShaper.listEntryParts`): the bytes must be those of the built entry.
@Suite("list entries written from stored fields")
struct ListEntryTextTests {
    static var sampleFolder: String { SampleChannelTests.sampleFolder }

    @Test(
        "every item of every export: the entry written from its stored fields is the built entry's bytes",
        arguments: [
            ExportFixtures.blog2021Zip, ExportFixtures.genA, ExportFixtures.genB, ExportFixtures.genD,
            ExportFixtures.siteTemplateZip, ListEntryTextTests.sampleFolder,
        ])
    func sameBytes(export: String) throws {
        let cache = try TemporaryFolder()
        defer { cache.remove() }
        let content = try loadExport([export], cache: cache)
        let shaper = DeliveryShaper(content: content)
        var omitting = ExportFixtures.context
        omitting.omitsLinks = true
        let writer = JSONWriter()
        var copied = 0
        for position in 0..<content.items.count {
            let item = try content.items.item(at: position)
            let expands: [ExpandSpec] = [.none, .all, .fields(Set(item.referenceFields.prefix(1)))]
            for expand in expands {
                for context in [ExportFixtures.context, omitting] {
                    let built = writer.bytes(try shaper.listEntry(item, context: context, expand: expand))
                    let parts = try shaper.listEntryParts(item, context: context, expand: expand, writer: writer)
                    // Assets are reshaped (size, metadata, renditions): they take the built path.
                    #expect((parts == nil) == item.isDigitalAsset, "\(item.id)")
                    guard let parts else { continue }
                    var text: [UInt8] = []
                    writer.write(object: parts.members, written: ["fields": parts.fields], into: &text)
                    #expect(String(decoding: text, as: UTF8.self) == String(decoding: built, as: UTF8.self))
                    copied += 1
                }
            }
        }
        #expect(copied > 0)
    }

    @Test("fields that do not read back as stored text take the built path")
    func unreadable() throws {
        var item = ExportItem(
            id: "CORE1", type: "T", typeCategory: "ContentType", name: "n", slug: nil, language: nil,
            fields: ["a": .int(1)])
        let shaper = DeliveryShaper(content: ChannelContent(items: [item]))
        let writer = JSONWriter()
        #expect(try shaper.listEntryParts(item, context: ExportFixtures.context, expand: .none, writer: writer) != nil)
        for text in [#"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#, #"{"a":}"#, "[1]", ""] {
            item.storedFields = ArraySlice(text.utf8)
            #expect(
                try shaper.listEntryParts(item, context: ExportFixtures.context, expand: .none, writer: writer) == nil,
                "\(text)")
        }
    }
}
