// The pieces of a mirror on their own: names from the server, the conversion of a Delivery item
// to its exported form, and the content types inferred from items.

import DeliveryKit
import Foundation
import OCEQCore
import Testing

@testable import MirrorModule

@Suite("mirror: names, item conversion, type inference")
struct PartsTests {
    @Test("ids and type names must be plain names; unsafe file names fall back to the id")
    func safeNames() {
        #expect(SafeName.isValidID("CORE118E1B080FC00FDDF39E019435E84A97"))
        for bad in ["", "..", "a/b", "../x", "a\\b", "a b", "a\u{0}b", String(repeating: "A", count: 129)] {
            #expect(!SafeName.isValidID(bad), "\(bad)")
        }
        #expect(SafeName.isValidTypeName("Starter-Blog-Post"))
        #expect(SafeName.isValidTypeName("Type.v2"))
        for bad in [".hidden", "..", "a/b", "VariationSets/../x", ""] { #expect(!SafeName.isValidTypeName(bad)) }
        #expect(SafeName.fileName("Author 4(427755).jpg", id: "CONT1", fileExtension: "jpg") == "Author 4(427755).jpg")
        #expect(SafeName.fileName("../../etc/passwd", id: "CONT1", fileExtension: "jpg") == "CONT1.jpg")
        #expect(SafeName.fileName("a\nb.jpg", id: "CONT1", fileExtension: "j/pg") == "CONT1")
        #expect(SafeName.fileName(".profile", id: "CONT1", fileExtension: nil) == "CONT1")
        // The same rule as downloads (core's SafeFileName): bidi overrides, C1 controls, Windows names.
        #expect(SafeName.fileName("gpj\u{202E}.exe", id: "CONT1", fileExtension: "jpg") == "CONT1.jpg")
        #expect(SafeName.fileName("a\u{85}b.jpg", id: "CONT1", fileExtension: "jpg") == "CONT1.jpg")
        #expect(SafeName.fileName("CON.jpg", id: "CONT1", fileExtension: "jpg") == "CONT1.jpg")
    }

    @Test("a Delivery item becomes its exported form: stubs without links, no token, no renditions")
    func conversion() throws {
        let delivery =
            try JSON.parse(
                Array(
                    """
                    {"id":"CONT1","type":"Image","typeCategory":"DigitalAssetType","name":"a b.png","description":"",
                     "fileExtension":"png","mimeType":"image/png","fileGroup":"Images","translatable":false,
                     "links":[{"href":"https://h/items/CONT1?channelToken=T0K3N","rel":"self"}],
                     "fields":{"size":3,"metadata":{"width":"2","height":"2"},"renditions":[{"name":"Small"}],
                      "native":{"links":[{"href":"https://h/assets/CONT1/native/a%20b.png?channelToken=T0K3N"}]},
                      "credit":{"id":"CORE9","type":"Author","typeCategory":"ContentType","name":"Ann",
                                "links":[{"href":"https://h/items/CORE9?channelToken=T0K3N"}]},
                      "note":"copied from https://h/?channelToken=T0K3N"}}
                    """.utf8)
            ).objectValue ?? [:]
        let converter = ExportItemConverter(sourceOrigin: "https://h")
        let exported = converter.convert(delivery)
        let fields = exported["fields"]?.objectValue ?? [:]
        #expect(exported["links"] == nil)
        #expect(fields["renditions"] == nil)
        #expect(
            fields["credit"]
                == .object(["id": "CORE9", "type": "Author", "typeCategory": "ContentType", "name": "Ann"]))
        #expect(
            fields["native"]?["links"]?[0]?["href"]?.stringValue
                == "https://h/content/management/api/v1.1/assets/CONT1/native/a%20b.png")
        // Content is written as it comes; the token of the links is gone with the links.
        #expect(fields["note"]?.stringValue == "copied from https://h/?channelToken=T0K3N")
        #expect(JSONWriter().string(.object(exported)).components(separatedBy: "T0K3N").count == 2)
        #expect(exported["fileExtension"] == "png" && exported["fileGroup"] == "Images")
        #expect(ExportItemConverter.referencedIDs(in: exported) == ["CORE9"])
    }

    @Test("types are inferred from the values of all items of a type")
    func inference() {
        var inference = ContentTypeInference()
        inference.add([
            "type": "Post", "typeCategory": "ContentType",
            "fields": [
                "title": "Hi", "body": "<p>x</p>", "count": 1,
                "when": ["value": "2024-01-01T00:00:00.000Z", "timezone": "UTC"],
                "tags": ["a", "b"], "hero": ["id": "CONT1", "type": "Image", "typeCategory": "DigitalAssetType"],
                "empty": .null,
            ],
        ])
        inference.add([
            "type": "Post", "typeCategory": "ContentType",
            "fields": ["title": .string(String(repeating: "long ", count: 60)), "count": 1.5, "empty": .null],
        ])
        let post = inference.definitions()["Post"]
        var types: [String: String] = [:]
        for field in post?["fields"]?.arrayValue ?? [] {
            types[field["name"]?.stringValue ?? ""] =
                (field["datatype"]?.stringValue ?? "") + "/" + (field["valuecount"]?.stringValue ?? "")
        }
        #expect(
            types == [
                "title": "largetext/single", "body": "largetext/single", "count": "decimal/single",
                "when": "datetime/single", "tags": "text/list", "hero": "reference/single", "empty": "text/single",
            ])
        let hero = post?["fields"]?.arrayValue?.first { $0["name"] == "hero" }
        #expect(hero?["referenceType"]?["type"] == "Image")
        #expect(hero?["settings"]?["caas"]?["editor"]?["name"] == "mediapicker")
        #expect(post?["apiName"] == "post")
        #expect(ContentTypeInference.apiName("OCEGettingStartedTopic") == "oceGettingStartedTopic")
        #expect(ContentTypeInference.apiName("Starter-Blog-Post") == "starterBlogPost")
        #expect(ContentTypeInference.apiName("image_16x9") == "image16x9")
    }
}

@Suite("Mirror index files written from text")
struct IndexBytesTests {
    @Test("a member inserted as JSON text lands where the sorted keys put it, as if written whole")
    func inserted() throws {
        let members: [String: JSON] = ["count": 3, "group0": ["A", "B"], "groups": 2, "z": "last"]
        let group1: JSON = ["A:ID1", "B:ID2"]
        let text = JSONWriter().compactBytes(group1)
        var whole = members
        whole["group1"] = group1
        #expect(
            ExportIndexWriter.bytes(.object(members), inserting: ("group1", text))
                == ExportIndexWriter.bytes(.object(whole)))
        #expect(
            ExportIndexWriter.bytes(.object(["a": 1]), inserting: ("zz", Array("[]".utf8)))
                == ExportIndexWriter.bytes(.object(["a": 1, "zz": []])))
        #expect(
            ExportIndexWriter.bytes(.object([:]), inserting: ("k", Array("1".utf8)))
                == ExportIndexWriter.bytes(.object(["k": 1])))
    }
}
