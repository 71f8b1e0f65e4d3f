// Taxonomies as an export stores them, and as Delivery shows them.
//
// Export side (export-format.md §2.1, ocm-delivery-extras.md §2.7): `Taxonomies/*.json` holds one
// taxonomy object (or an array of them) with `id`, `name`, `shortName`, `description` at the top;
// OCM's layout of the categories inside is not documented, so oceq reads `categories` as either a
// tree (each category's `children`) or a flat list (each category's `parentId` or `parent.id`), in
// the order given unless `position` says otherwise. An item's assignments are its management-form
// `taxonomies`: `{"data": [{"id": <taxonomy>, "categories": [{"id": <category>, "nodes": [...]}]}]}`
// (the Management API shape; `nodes` may be left out, it is recomputed from the tree).
//
// Delivery side (ocm-recorded README fact 13): an item's `taxonomies` is `{items: [{id, name,
// shortName, categories: {items: [{id, name, apiName, nodes: [root … category], links}]}, links}]}`;
// a category read alone has `id, name, description, apiName, position, parent, ancestors, links`.

import OCEQCore

/// One category of a taxonomy.
package struct ExportCategory: Sendable, Hashable {
    /// The category id (32 hex digits in OCM).
    package var id: String
    /// The display name.
    package var name: String
    /// The API name (`csg-origins-africa`), empty when the export has none.
    package var apiName: String
    /// The description, empty when none.
    package var description: String
    /// Its place among its siblings (0-based).
    package var position: Int
    /// The parent category's id; nil for a top-level category.
    package var parentId: String?
    /// `keywords`, `synonyms`, `customProperties`, `relatedCategories` as exported (served only
    /// when asked for with `fields=`).
    package var extra: [String: JSON]

    /// A category from its parts.
    package init(
        id: String, name: String, apiName: String = "", description: String = "", position: Int = 0,
        parentId: String? = nil, extra: [String: JSON] = [:]
    ) {
        self.id = id
        self.name = name
        self.apiName = apiName
        self.description = description
        self.position = position
        self.parentId = parentId
        self.extra = extra
    }

    /// The keys a category shows only when `fields=` names them (or `fields=all`).
    package static let optionalKeys = ["keywords", "synonyms", "relatedCategories", "customProperties"]
}

/// A taxonomy of the channel with its categories.
package struct ChannelTaxonomy: Sendable {
    /// The taxonomy id.
    package var id: String
    /// The taxonomy's exported object (its summary keys are served as they are).
    package var raw: JSON
    /// The categories, parents before children, siblings by position.
    package var categories: [ExportCategory]
    private var indexById: [String: Int]

    /// The taxonomy's name.
    package var name: String { raw["name"]?.stringValue ?? "" }
    /// The taxonomy's short name (`CSG`).
    package var shortName: String { raw["shortName"]?.stringValue ?? "" }

    /// Reads one taxonomy object; nil without an `id`.
    package init?(_ json: JSON) {
        guard let id = json["id"]?.stringValue, !id.isEmpty else { return nil }
        self.id = id
        self.raw = json
        var found: [ExportCategory] = []
        Self.collect(json["categories"]?.arrayValue ?? [], parent: nil, into: &found)
        // Positions default to the order among siblings; `position` given in the file wins.
        var seen: Set<String> = []
        found = found.filter { seen.insert($0.id).inserted }
        var siblingsSeen: [String: Int] = [:]
        for index in found.indices {
            let key = found[index].parentId ?? ""
            let order = siblingsSeen[key, default: 0]
            siblingsSeen[key] = order + 1
            if found[index].position < 0 { found[index].position = order }
        }
        var byId: [String: Int] = [:]
        for (index, category) in found.enumerated() { byId[category.id] = index }
        // A parent that is not in the taxonomy makes its child top-level.
        for index in found.indices where found[index].parentId.map({ byId[$0] == nil }) ?? false {
            found[index].parentId = nil
        }
        categories = found
        indexById = byId
    }

    private static func collect(_ list: [JSON], parent: String?, into found: inout [ExportCategory]) {
        for element in list {
            guard let id = element["id"]?.stringValue, !id.isEmpty else { continue }
            let parentId =
                parent ?? element["parentId"]?.stringValue ?? element["parent"]?["id"]?.stringValue
            var extra: [String: JSON] = [:]
            for key in ExportCategory.optionalKeys { if let value = element[key] { extra[key] = value } }
            found.append(
                ExportCategory(
                    id: id, name: element["name"]?.stringValue ?? "", apiName: element["apiName"]?.stringValue ?? "",
                    description: element["description"]?.stringValue ?? "",
                    position: element["position"]?.intValue ?? -1, parentId: parentId, extra: extra))
            collect(element["children"]?.arrayValue ?? [], parent: id, into: &found)
        }
    }

    /// The category with this id, or nil.
    package func category(id: String) -> ExportCategory? {
        indexById[id].map { categories[$0] }
    }

    /// The path from the root category down to and including `id` (empty for an unknown id).
    package func nodes(of id: String) -> [ExportCategory] {
        var path: [ExportCategory] = []
        var current = category(id: id)
        while let category = current, path.count <= categories.count {
            path.append(category)
            current = category.parentId.flatMap { self.category(id: $0) }
        }
        return path.reversed()
    }

    /// The taxonomies of a channel, in file order, skipping objects without an id.
    package static func all(_ content: ChannelContent) -> [ChannelTaxonomy] {
        content.taxonomies.compactMap(ChannelTaxonomy.init)
    }
}

/// An item's assignment to categories of one taxonomy, read from its exported `taxonomies`.
///
/// Names are kept as exported, so an item whose taxonomy is not in the export's `Taxonomies/`
/// (a mirrored channel) still shows its categories.
package struct TaxonomyAssignment: Sendable, Hashable {
    /// A category as `nodes` name it: `{id, name, apiName}`.
    package struct Node: Sendable, Hashable {
        /// The category id.
        package var id: String
        /// Its name, empty when not exported.
        package var name: String
        /// Its API name, empty when not exported.
        package var apiName: String

        /// A node from its parts.
        package init(id: String, name: String = "", apiName: String = "") {
            self.id = id
            self.name = name
            self.apiName = apiName
        }

        /// The node of a category of a taxonomy tree.
        package init(_ category: ExportCategory) {
            self.init(id: category.id, name: category.name, apiName: category.apiName)
        }

        /// `{id, name, apiName}`.
        package var json: JSON {
            .object(["id": .string(id), "name": .string(name), "apiName": .string(apiName)])
        }
    }

    /// One assigned category and its nodes (root … itself).
    package struct Category: Sendable, Hashable {
        /// The assigned category.
        package var node: Node
        /// From the root down to and including the category (may be empty when exported so).
        package var nodes: [Node]

        /// An assigned category.
        package init(node: Node, nodes: [Node]) {
            self.node = node
            self.nodes = nodes
        }
    }

    /// The taxonomy the categories belong to.
    package var taxonomyId: String
    /// The taxonomy's name as exported (empty when not).
    package var name: String
    /// The taxonomy's short name as exported (empty when not).
    package var shortName: String
    /// The assigned categories.
    package var categories: [Category]

    /// Assignments from their parts.
    package init(taxonomyId: String, name: String = "", shortName: String = "", categories: [Category]) {
        self.taxonomyId = taxonomyId
        self.name = name
        self.shortName = shortName
        self.categories = categories
    }

    /// The assignments of a management-form `taxonomies` value (`{data: [...]}`, a Delivery
    /// `{items: [...]}` or a bare array); empty for `{}`.
    package static func read(_ value: JSON?) -> [TaxonomyAssignment] {
        guard let value else { return [] }
        let list = value["data"]?.arrayValue ?? value["items"]?.arrayValue ?? value.arrayValue ?? []
        return list.compactMap { entry in
            guard let id = entry["id"]?.stringValue, !id.isEmpty else { return nil }
            let categoryList = entry["categories"]?["items"]?.arrayValue ?? entry["categories"]?.arrayValue ?? []
            let categories: [Category] = categoryList.compactMap { category in
                guard let node = node(category) else { return nil }
                return Category(node: node, nodes: (category["nodes"]?.arrayValue ?? []).compactMap(Self.node))
            }
            return TaxonomyAssignment(
                taxonomyId: id, name: entry["name"]?.stringValue ?? "",
                shortName: entry["shortName"]?.stringValue ?? "",
                categories: categories)
        }
    }

    private static func node(_ json: JSON) -> Node? {
        guard let id = json["id"]?.stringValue, !id.isEmpty else { return nil }
        return Node(id: id, name: json["name"]?.stringValue ?? "", apiName: json["apiName"]?.stringValue ?? "")
    }

    /// The management-form JSON of assignments (what `read` reads back).
    package static func json(_ assignments: [TaxonomyAssignment]) -> JSON {
        .object([
            "data": .array(
                assignments.map { assignment in
                    .object([
                        "id": .string(assignment.taxonomyId), "name": .string(assignment.name),
                        "shortName": .string(assignment.shortName),
                        "categories": .array(
                            assignment.categories.map { category in
                                var object = category.node.json
                                object["nodes"] = .array(category.nodes.map(\.json))
                                return object
                            }),
                    ])
                })
        ])
    }

    /// The values the search index keeps for `q` on `taxonomies`: each taxonomy id and every
    /// node id, plain (`taxonomies eq`, `taxonomies.categories.nodes.id eq`), and each assigned
    /// category id prefixed with `category:` (`taxonomies.categories.id eq`).
    package static func indexValues(_ assignments: [TaxonomyAssignment]) -> [String] {
        var seen: Set<String> = []
        var values: [String] = []
        for assignment in assignments {
            if seen.insert(assignment.taxonomyId).inserted { values.append(assignment.taxonomyId) }
            for category in assignment.categories {
                for node in category.nodes.map(\.id) + [category.node.id] where seen.insert(node).inserted {
                    values.append(node)
                }
                let direct = directPrefix + category.node.id
                if seen.insert(direct).inserted { values.append(direct) }
            }
        }
        return values
    }

    /// The prefix of directly assigned category ids among the index values.
    package static let directPrefix = "category:"
}
