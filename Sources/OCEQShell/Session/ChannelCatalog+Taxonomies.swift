// The names of the channel's taxonomies and categories, for a condition on an item's taxonomies compared
// with a name (`count taxonomies=Espresso`): read once per session (every taxonomy, then each one's
// categories, all pages) when a statement needs them, and kept in `CompletionCache` beside the schema.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

extension ChannelCatalog {
    /// The cache key of the taxonomies' and categories' names.
    package static let taxonomyNamesKey = "taxonomy-names"

    /// Every published taxonomy and every category of each, as the API names them.
    package static func taxonomyNames(_ client: DeliveryClient) async throws -> TaxonomyNames {
        var taxonomies: [TaxonomyTerm] = []
        var categories: [TaxonomyTerm] = []
        for try await taxonomy in client.items(DeliveryAPI.listTaxonomies()) {
            taxonomies.append(TaxonomyTerm(name: taxonomy.name, alias: taxonomy.shortName, id: taxonomy.id))
            for try await category in client.items(DeliveryAPI.listTaxonomyCategories(taxonomyId: taxonomy.id)) {
                categories.append(
                    TaxonomyTerm(name: category.name, alias: category.apiName, id: category.id, taxonomy: taxonomy.name)
                )
            }
        }
        return TaxonomyNames(taxonomies: taxonomies, categories: categories)
    }

    /// The taxonomies' and categories' names that `cache` holds, cleaned of terminal controls (for the
    /// compiler's candidate lists); nil when they were not read.
    package static func displayableTaxonomyNames(in cache: CompletionCache) -> TaxonomyNames? {
        guard let names = cache.cached(taxonomyNamesKey, as: TaxonomyNames.self) else { return nil }
        func clean(_ term: TaxonomyTerm) -> TaxonomyTerm {
            TaxonomyTerm(
                name: TerminalText.clean(term.name), alias: term.alias.map(TerminalText.clean), id: term.id,
                taxonomy: term.taxonomy.map(TerminalText.clean))
        }
        return TaxonomyNames(taxonomies: names.taxonomies.map(clean), categories: names.categories.map(clean))
    }
}
