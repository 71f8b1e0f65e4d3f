/// A published taxonomy (delivery-api.md §8).
import OCEQCore

public struct Taxonomy: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var description: String?
    public var shortName: String?
    /// String-valued custom properties.
    public var customProperties: [String: String]
    public var createdDate: DeliveryDate?
    public var updatedDate: DeliveryDate?
    public var links: [Link]
    /// The whole JSON object as received.
    public var raw: [String: JSON]

    public init(json: JSON, path: String = "") throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a taxonomy object with a string \"id\"")
        id = try reader.requiredString("id")
        name = reader.string("name") ?? ""
        description = reader.string("description")
        shortName = reader.string("shortName")
        customProperties = reader.stringMap("customProperties")
        createdDate = reader.date("createdDate")
        updatedDate = reader.date("updatedDate")
        links = reader.links()
        raw = reader.members
    }

    /// The whole object as JSON.
    public var json: JSON { .object(raw) }
}

/// A category of a taxonomy (delivery-api.md §8); optional parts are empty when not requested.
public struct TaxonomyCategory: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var description: String?
    public var apiName: String?
    public var position: Int?
    public var parent: CategoryReference?
    /// Root first, immediate parent last.
    public var ancestors: [CategoryReference]
    /// The nested list of child stubs, when present.
    public var children: Page<TaxonomyCategory>?
    public var nodes: [CategoryReference]
    public var keywords: [String]
    public var synonyms: [String]
    public var relatedCategories: [JSON]
    public var customProperties: [String: String]
    public var links: [Link]
    /// The whole JSON object as received.
    public var raw: [String: JSON]

    public init(json: JSON, path: String = "") throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a category object with a string \"id\"")
        id = try reader.requiredString("id")
        name = reader.string("name") ?? ""
        description = reader.string("description")
        apiName = reader.string("apiName")
        position = reader.int("position")
        if let parent = reader.members["parent"], !parent.isNull {
            self.parent = try CategoryReference(json: parent, path: reader.child("parent"))
        } else {
            parent = nil
        }
        ancestors = try reader.array("ancestors") { (node, path) throws(ShapeError) in
            try CategoryReference(json: node, path: path)
        }
        if let children = reader.members["children"], !children.isNull {
            self.children = try Page(json: children, path: reader.child("children")) {
                (item, path) throws(ShapeError) in
                try TaxonomyCategory(json: item, path: path)
            }
        } else {
            children = nil
        }
        nodes = try reader.array("nodes") { (node, path) throws(ShapeError) in
            try CategoryReference(json: node, path: path)
        }
        keywords = reader.members["keywords"]?.arrayValue?.compactMap(\.stringValue) ?? []
        synonyms = reader.members["synonyms"]?.arrayValue?.compactMap(\.stringValue) ?? []
        relatedCategories = reader.members["relatedCategories"]?.arrayValue ?? []
        customProperties = reader.stringMap("customProperties")
        links = reader.links()
        raw = reader.members
    }

    /// The whole object as JSON.
    public var json: JSON { .object(raw) }

    /// The parent of each of `categories` that names one, by category id: its `parent`, else the last
    /// of its `ancestors`, else the category that lists it among its inlined `children` (a search entry
    /// need not name its parent or ancestors; `expand=all` inlines the children). A top-level category,
    /// or one whose answer tells nothing, has none.
    public static func parents(of categories: [TaxonomyCategory]) -> [String: String] {
        var parents: [String: String] = [:]
        for category in categories {
            for child in category.children?.items ?? [] { parents[child.id] = category.id }
        }
        for category in categories {
            if let named = category.parent?.id ?? category.ancestors.last?.id { parents[category.id] = named }
        }
        return parents
    }
}

/// A reference to a category: `{id, name, apiName}`.
public struct CategoryReference: Sendable, Hashable {
    public var id: String
    public var name: String
    public var apiName: String?

    init(json: JSON, path: String) throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a category reference with a string \"id\"")
        id = try reader.requiredString("id")
        name = reader.string("name") ?? ""
        apiName = reader.string("apiName")
    }
}

/// A set of variations of an item (`language` variations, ...).
public struct VariationSet: Sendable, Hashable {
    /// `language`, ...
    public var varType: String?
    public var masterItem: String?
    public var setId: String?
    public var items: [Variation]
    public var links: [Link]

    init(json: JSON, path: String) throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a variation set object with \"items\"")
        varType = reader.string("varType")
        masterItem = reader.string("masterItem")
        setId = reader.string("setId")
        guard case .array = reader.members["items"] else {
            throw ShapeError(
                path: reader.child("items"), expected: "an array of variations", found: reader.members["items"])
        }
        items = try reader.array("items") { (item, path) throws(ShapeError) in try Variation(json: item, path: path) }
        links = reader.links()
    }
}

/// One variation: the id of the item in that variation and its value (`fr-FR`, ...).
public struct Variation: Sendable, Hashable {
    public var id: String
    public var value: String
    public var name: String?
    public var slug: String?
    public var isMaster: Bool?
    public var links: [Link]

    init(json: JSON, path: String) throws(ShapeError) {
        let reader = try JSONObjectReader(json, path: path, expected: "a variation object with a string \"id\"")
        id = try reader.requiredString("id")
        value = reader.string("value") ?? ""
        name = reader.string("name")
        slug = reader.string("slug")
        isMaster = reader.bool("isMaster")
        links = reader.links()
    }
}
