import ChannelServer
import DeliveryKit
import Foundation
import OCEQCore

/// A small hand-built channel: two authors, four articles, two images.
enum IndexTestItems {
    /// Two long texts (longer than the index's folded prefix) sharing their first 90 characters.
    static let sharedStart = String(repeating: "Long Story ", count: 8) + "0123456789"
    static let longOne = sharedStart + " about roasting coffee beans slowly in a pan until they crack twice"
    static let longTwo = sharedStart + " about brewing tea"

    static func date(_ value: String, _ zone: String = "UTC") -> JSON {
        ["value": .string(value), "timezone": .string(zone)]
    }

    static func stub(_ id: String, _ type: String) -> JSON {
        ["id": .string(id), "type": .string(type), "typeCategory": "ContentType", "name": "stub"]
    }

    static let items: [ExportItem] = [
        ExportItem(
            id: "COREA1", type: "Author", typeCategory: "ContentType", name: "Ana Lima", slug: "ana",
            language: "en-US", createdDate: date("2021-01-05T10:00:00.000Z"),
            updatedDate: date("2021-01-05T10:00:00.000Z"),
            fields: ["bio": "Coffee roaster from Lisbon", "age": 34, "alias": "Ana"]),
        ExportItem(
            id: "COREA2", type: "Author", typeCategory: "ContentType", name: "bob Stone", slug: "bob",
            language: "en-US", createdDate: date("2021-01-06T10:00:00.000Z"),
            updatedDate: date("2021-01-07T10:00:00.000Z"),
            fields: ["bio": "Tea drinker", "age": 51, "alias": .null]),
        ExportItem(
            id: "CORER1", type: "Article", typeCategory: "ContentType", name: "Roasting at home",
            description: "Short intro to roasting", slug: "roasting-at-home", language: "en-US", translatable: true,
            createdDate: date("2021-03-01T10:00:00.000Z"), updatedDate: date("2021-03-02T08:30:00.000Z"),
            fields: [
                "title": "Roasting Coffee at Home", "topic": "Coffee",
                "published": date("2021-02-28T00:00:00.000-07:00", "America/Denver"), "minutes": 6, "rating": 4.5,
                "featured": false, "keywords": ["coffee", "home", "Green Beans"], "author": stub("COREA1", "Author"),
                "related": [stub("CORER2", "Article"), stub("CORER3", "Article")],
                "body": "<p>Start with <b>green</b> beans &amp; patience</p>", "summary": .string(longOne),
            ]),
        ExportItem(
            id: "CORER2", type: "Article", typeCategory: "ContentType", name: "Brewing Guide",
            description: "How to brew", slug: "brewing-guide", language: "fr-FR", translatable: true,
            createdDate: date("2021-05-10T09:30:00.000Z"), updatedDate: date("2021-05-11T09:30:00.000Z"),
            fields: [
                "title": "Brewing the perfect cup", "topic": "Tea",
                "published": date("2021-05-10T09:30:00.000Z"), "minutes": 12, "rating": 3, "featured": true,
                "keywords": ["tea"], "author": stub("COREA2", "Author"), "related": [],
                "body": "Water at 80 degrees for green tea", "summary": .string(longTwo),
            ]),
        ExportItem(
            id: "CORER3", type: "Article", typeCategory: "ContentType", name: "Café culture",
            description: "", slug: "cafe-culture", language: "en-US", translatable: false,
            createdDate: date("2021-02-01T00:00:00.000Z"), updatedDate: date("2021-02-01T00:00:00.000Z"),
            fields: [
                "title": "Café culture in Lisbon", "topic": "coffee", "published": .null, "minutes": 6,
                "rating": 4.5, "featured": false, "keywords": .null, "author": stub("COREA1", "Author"),
                "related": [stub("CORER1", "Article")], "body": "Espresso, bica and pastel de nata",
            ]),
        ExportItem(
            id: "CORER4", type: "Article", typeCategory: "ContentType", name: "ROASTING Dark",
            description: "Dark roast", slug: "roasting-dark", language: "en-US",
            createdDate: date("2021-04-01T00:00:00.000Z"), updatedDate: date("2021-04-01T00:00:00.000Z"),
            fields: [
                "title": "Dark roasts", "topic": "Coffee",
                "published": date("2021-04-01T12:00:00.000+02:00", "Europe/Paris"),
                "minutes": 3, "featured": false, "keywords": ["coffee", "dark"], "author": .null,
                "body": "Rome was not roasted in a day",
            ]),
        ExportItem(
            id: "CONTI1", type: "Image", typeCategory: "DigitalAssetType", name: "beans.JPG",
            createdDate: date("2021-01-01T00:00:00.000Z"), updatedDate: date("2021-01-01T00:00:00.000Z"),
            fields: ["mimeType": "image/jpeg", "fileGroup": "Images", "size": 1234]),
        ExportItem(
            id: "CONTI2", type: "Image", typeCategory: "DigitalAssetType", name: "cup.png",
            createdDate: date("2021-01-02T00:00:00.000Z"), updatedDate: date("2021-01-02T00:00:00.000Z"),
            fields: ["mimeType": "image/png", "fileGroup": "Images", "size": 99]),
    ]
}

/// A scratch directory under the system temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let path: String

    init() {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("oceq-index-test-\(UUID().uuidString)")
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
