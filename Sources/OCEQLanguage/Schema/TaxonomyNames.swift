// The names of a channel's taxonomies and categories, for a condition on an item's taxonomies compared
// with a name (`taxonomies=Espresso`): the API matches ids only, so a name is sent as the id of the
// category (or taxonomy) it names, as `topic=Recipes` is sent as the topic's id.

import OCEQCore

/// A taxonomy or category: its name, its other name (a taxonomy's short name, a category's API name)
/// and its id.
package struct TaxonomyTerm: Sendable, Hashable {
    /// The name.
    package var name: String
    /// The short name of a taxonomy, the API name of a category.
    package var alias: String?
    /// The id.
    package var id: String
    /// The name of the taxonomy a category belongs to; nil for a taxonomy.
    package var taxonomy: String?

    /// A taxonomy (`taxonomy` nil) or one of its categories.
    package init(name: String, alias: String?, id: String, taxonomy: String? = nil) {
        self.name = name
        self.alias = alias
        self.id = id
        self.taxonomy = taxonomy
    }

    /// The name, with the taxonomy of a category: what a message lists.
    package var label: String { taxonomy.map { "\(name) (\($0))" } ?? name }
}

/// The taxonomies of a channel and their categories.
package struct TaxonomyNames: Sendable, Hashable {
    /// The taxonomies.
    package var taxonomies: [TaxonomyTerm]
    /// The categories of every taxonomy.
    package var categories: [TaxonomyTerm]

    /// No taxonomies (a channel without any, or names not read).
    package static let empty = TaxonomyNames(taxonomies: [], categories: [])

    /// The given taxonomies and categories.
    package init(taxonomies: [TaxonomyTerm], categories: [TaxonomyTerm]) {
        self.taxonomies = taxonomies
        self.categories = categories
    }

    /// What a field of a query that takes taxonomy or category ids takes.
    package enum Field: Sendable, Hashable {
        /// `taxonomies`: a taxonomy's id or a category's.
        case taxonomyOrCategory
        /// `taxonomies.categories.id` and `taxonomies.categories.nodes.id`, the paths Oracle's toolkit
        /// and SDKs send: a category's id.
        case category
    }

    /// What `field` takes, when it is one of the fields that take taxonomy or category ids.
    package static func field(_ field: FieldPath) -> Field? {
        guard field.isStandard else { return nil }
        switch field.text {
        case "taxonomies": return .taxonomyOrCategory
        case "taxonomies.categories.id", "taxonomies.categories.nodes.id": return .category
        default: return nil
        }
    }

    /// The terms a value of a `field` condition names: categories, and for `taxonomies` taxonomies too.
    package func terms(for field: Field) -> [TaxonomyTerm] {
        field == .category ? categories : taxonomies + categories
    }

    /// The term of `terms` that `text` names: its id; its name exactly, else in any case (two terms of
    /// that name are ambiguous: categories of one name in two places are two categories); its alias (a
    /// short name or API name) in any case; else the one name starting with or containing it, as
    /// `NameMatch` reads names. The one reading of `taxonomies=NAME` and of `categories TAXONOMY`.
    package static func find(_ text: String, among terms: [TaxonomyTerm]) -> NameMatch {
        if let index = terms.firstIndex(where: { $0.id == text }) { return .found(index) }
        let lowered = text.lowercased()
        let equal = terms.indices.filter { terms[$0].name.lowercased() == lowered }
        let exact = equal.filter { terms[$0].name == text }
        let hits = exact.count == 1 ? exact : equal
        if hits.count == 1 { return .found(hits[0]) }
        if hits.count > 1 { return .ambiguous(hits) }
        if let index = terms.firstIndex(where: { $0.alias?.lowercased() == lowered }) { return .found(index) }
        return NameMatch.find(text, in: terms.map(\.name))
    }

    /// True for the ids of taxonomies and categories: 32 hexadecimal digits in capitals.
    package static func looksLikeID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
    }
}
