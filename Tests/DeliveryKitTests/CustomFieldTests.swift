import DeliveryKit
import FoundationEssentials
import OCEQCore
import Testing

@Suite("customField typed access")
struct CustomFieldTests {
    static let item = try! Asset(
        json: try! JSON.parse(
            #"""
            {"id": "CORE1", "type": "Article", "typeCategory": "ContentType",
             "fields": {"title": "Hello", "count": 3, "ratio": 2.5, "whole": 4.0, "flag": false,
                        "when": {"value": "2021-02-28T00:00:00.000-07:00", "timezone": "America/Denver"},
                        "plainDate": "2021-03-01T10:00:00Z",
                        "keywords": ["coffee", "home"], "mixed": ["a", 1],
                        "author": {"id": "CORE3", "type": "Author", "name": "Ana"},
                        "images": [{"id": "CONT1", "type": "Image"}, {"id": "CONT2", "type": "Image"}],
                        "badImages": [{"id": "CONT1"}, {"name": "no id"}],
                        "empty": null, "json": {"a": [1, 2]}}}
            """#))

    @Test("every supported type")
    func types() throws {
        let item = Self.item
        #expect(try item.customField("title") as String == "Hello")
        #expect(try item.customField("count") as Int == 3)
        #expect(try item.customField("whole") as Int == 4)
        #expect(try item.customField("ratio") as Double == 2.5)
        #expect(try item.customField("count") as Double == 3)
        #expect(try item.customField("flag") as Bool == false)
        #expect(try item.customField("when") as Date == Date(timeIntervalSince1970: 1_614_495_600))
        #expect(try item.customField("plainDate") as Date == Date(timeIntervalSince1970: 1_614_592_800))
        #expect(try item.customField("keywords") as [String] == ["coffee", "home"])
        #expect(try (item.customField("author") as Asset).name == "Ana")
        #expect(try (item.customField("images") as [Asset]).map(\.id) == ["CONT1", "CONT2"])
        #expect(try item.customField("json") as JSON == ["a": [1, 2]])
        #expect(try item.customField("empty") as String? == nil)
        #expect(try item.customField("title") as String? == "Hello")
    }

    @Test(
        "wrong types name the field, the expected type and what was found",
        arguments: [
            ("count", "String", "number 3"), ("title", "Int", "string \"Hello\""), ("ratio", "Int", "number 2.5"),
            ("title", "Bool", "string \"Hello\""), ("title", "Date", "string \"Hello\""), ("empty", "String", "null"),
            ("keywords", "Asset", "array of 2"), ("mixed", "[String]", "an array whose element [1] is number 1"),
            ("badImages", "[Asset]", "an array whose element [1] is an object without a string \"id\""),
            ("author", "[Asset]", "object"), ("title", "Asset", "string \"Hello\""),
            ("json", "Asset", "an object without a string \"id\""),
        ])
    func wrongType(name: String, type: String, found: String) {
        let item = Self.item
        let read: () throws(CustomFieldError) -> Void = {
            switch type {
            case "String": _ = try item.customField(name, as: String.self)
            case "Int": _ = try item.customField(name, as: Int.self)
            case "Bool": _ = try item.customField(name, as: Bool.self)
            case "Date": _ = try item.customField(name, as: Date.self)
            case "Asset": _ = try item.customField(name, as: Asset.self)
            case "[String]": _ = try item.customField(name, as: [String].self)
            default: _ = try item.customField(name, as: [Asset].self)
            }
        }
        do {
            try read()
            Issue.record("expected an error")
        } catch {
            guard case .wrongType(let field, let id, let expected, let actual) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(field == name)
            #expect(id == "CORE1")
            #expect(expected.hasPrefix(type))
            #expect(actual == found)
            #expect(error.description.contains("field \"\(name)\" of CORE1: expected \(type)"))
        }
    }

    @Test("a missing field lists the fields there are")
    func missing() {
        #expect(throws: CustomFieldError.self) { try Self.item.customField("nope", as: String.self) }
        do {
            _ = try Self.item.customField("nope", as: String.self)
        } catch {
            #expect("\(error)".hasPrefix("CORE1 has no field \"nope\" (its fields: author, badImages, count,"))
        }
    }

    @Test("digital assets expose user fields beside their metadata")
    func digitalAssetCustomFields() throws {
        let asset = try Asset(
            json: try JSON.parse(
                #"{"id":"CONT1","type":"Photo","typeCategory":"DigitalAssetType","fields":{"size":10,"metadata":{"width":"3","height":4},"caption":"Hi"}}"#
            ))
        #expect(asset.customFields == ["caption": "Hi"])
        #expect(try asset.customField("caption") as String == "Hi")
        #expect(asset.digitalAsset?.width == 3)
        #expect(asset.digitalAsset?.height == 4)
        #expect(throws: CustomFieldError.self) { try asset.customField("size", as: Int.self) }
    }

    @Test(
        "kind follows typeCategory, then type DigitalAsset",
        arguments: [
            (#"{"id":"a","type":"Image","typeCategory":"DigitalAssetType"}"#, Asset.Kind.digitalAsset),
            (#"{"id":"a","type":"Image"}"#, .contentItem),
            (#"{"id":"a","type":"DigitalAsset"}"#, .digitalAsset),
            (#"{"id":"a","type":"DigitalAsset","typeCategory":""}"#, .digitalAsset),
            (#"{"id":"a","type":"DigitalAsset","typeCategory":"ContentType"}"#, .contentItem),
        ])
    func kind(text: String, kind: Asset.Kind) throws {
        #expect(try Asset(json: try JSON.parse(text)).kind == kind)
    }
}
