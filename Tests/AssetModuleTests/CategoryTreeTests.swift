import DeliveryKit
import OCEQCore
import Testing

@testable import AssetModule

/// How `categories` orders and indents what a category search answered.
@Suite("categories: the tree from parents, ancestors or children")
struct CategoryTreeTests {
    /// Categories parsed from JSON objects.
    static func categories(_ text: String) throws -> [TaxonomyCategory] {
        try (JSON.parse(Array(text.utf8)).arrayValue ?? []).map { try TaxonomyCategory(json: $0) }
    }

    /// "name@depth" for each row of the tree.
    static func rows(_ categories: [TaxonomyCategory]) -> [String] {
        CategoriesCommand.tree(categories).map { "\($0.0.name)@\($0.1)" }
    }

    @Test("children lists alone (what expand gives a search) make the tree, siblings by position")
    func fromChildren() throws {
        let answer = try Self.categories(
            """
            [{"id": "E", "name": "Espresso", "position": 0},
             {"id": "M", "name": "Methods", "position": 1,
              "children": {"items": [{"id": "F", "name": "Filter", "position": 1},
                                     {"id": "E", "name": "Espresso", "position": 0}]}},
             {"id": "O", "name": "Origins", "position": 0,
              "children": {"items": [{"id": "A", "name": "Africa", "position": 0}]}},
             {"id": "F", "name": "Filter", "position": 1},
             {"id": "A", "name": "Africa", "position": 0}]
            """)
        #expect(Self.rows(answer) == ["Origins@0", "Africa@1", "Methods@0", "Espresso@1", "Filter@1"])
    }

    @Test("with nothing that tells a parent, the server's order is kept, flat")
    func noParents() throws {
        let answer = try Self.categories(
            """
            [{"id": "O", "name": "Origins", "position": 0}, {"id": "A", "name": "Africa", "position": 0},
             {"id": "M", "name": "Methods", "position": 1}, {"id": "E", "name": "Espresso", "position": 0}]
            """)
        #expect(Self.rows(answer) == ["Origins@0", "Africa@0", "Methods@0", "Espresso@0"])
    }

    @Test("categories whose parents form a loop are still shown, after the tree")
    func parentLoop() throws {
        let answer = try Self.categories(
            """
            [{"id": "R", "name": "Root", "position": 0},
             {"id": "X", "name": "X", "position": 0, "parent": {"id": "Y", "name": "Y"}},
             {"id": "Y", "name": "Y", "position": 0, "parent": {"id": "X", "name": "X"}},
             {"id": "C", "name": "Child", "position": 0, "ancestors": [{"id": "R", "name": "Root"}]}]
            """)
        #expect(Self.rows(answer) == ["Root@0", "Child@1", "X@0", "Y@0"])
    }
}
