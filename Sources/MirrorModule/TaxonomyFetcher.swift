// The channel's taxonomies, as `Taxonomies/<id>.json` (the layout `oceq serve` reads, ChannelTaxonomy.swift;
// OCM's own file layout is not documented): every published taxonomy with its standard members, and its
// categories as a flat list, each with `parentId` where it has a parent and its `position`. Without them a
// mirror served by `oceq serve` had no `/taxonomies`, so `taxonomies` listed none and `categories CSG`
// failed, though the items kept their categories. A taxonomy no longer on the channel is removed by a
// mirror of the whole channel, as its items are.

import DeliveryKit
import DeliveryTransport
import OCEQCore

/// Fetches and writes the channel's taxonomies.
struct TaxonomyFetcher {
    var client: DeliveryClient
    var target: MirrorTarget

    /// The members of a taxonomy written (its `links` and anything a request added are not).
    static let taxonomyMembers = [
        "id", "name", "shortName", "description", "customProperties", "createdDate", "updatedDate",
    ]
    /// The members of a category written, besides `parentId`.
    static let categoryMembers = [
        "id", "name", "apiName", "description", "position", "keywords", "synonyms", "relatedCategories",
        "customProperties",
    ]

    /// What a run did: taxonomy files written or unchanged, those removed, and the failures as messages.
    struct Outcome {
        var written = 0
        var unchanged = 0
        var removed = 0
        var failures: [String] = []
    }

    /// Fetches every taxonomy and its categories and writes their files; with `removingOthers` (a mirror
    /// of the whole channel) and a complete listing, removes the taxonomy files of taxonomies gone.
    func run(removingOthers: Bool) async -> Outcome {
        var outcome = Outcome()
        var taxonomies: [Taxonomy] = []
        do {
            for try await taxonomy in client.items(DeliveryAPI.listTaxonomies()) { taxonomies.append(taxonomy) }
        } catch {
            outcome.failures.append("taxonomies: \(error)")
            return outcome
        }
        var kept: Set<String> = []
        for taxonomy in taxonomies where !Task.isCancelled {
            guard SafeName.isValidID(taxonomy.id) else {
                outcome.failures.append("a taxonomy whose id is not a plain name (\(MirrorState.quoted(taxonomy.id)))")
                continue
            }
            kept.insert(taxonomy.id + ".json")
            var categories: [TaxonomyCategory] = []
            do {
                let request = DeliveryAPI.listTaxonomyCategories(taxonomyId: taxonomy.id).expand(.all)
                for try await category in client.items(request) { categories.append(category) }
            } catch {
                outcome.failures.append("categories of taxonomy \(taxonomy.id): \(error)")
                continue
            }
            var bytes = JSONWriter().compactBytes(Self.file(taxonomy, categories))
            bytes.append(UInt8(ascii: "\n"))
            do {
                if try target.write(bytes, to: target.taxonomyFile(id: taxonomy.id)) {
                    outcome.written += 1
                } else {
                    outcome.unchanged += 1
                }
            } catch {
                outcome.failures.append(error.description)
            }
        }
        if removingOthers && !Task.isCancelled {
            outcome.removed = target.removeTaxonomies(except: kept)
        }
        return outcome
    }

    /// A taxonomy's file: its standard members and `categories`, a flat list in the server's order, each
    /// category with `parentId` (`TaxonomyCategory.parents(of:)`) where it has a parent.
    static func file(_ taxonomy: Taxonomy, _ categories: [TaxonomyCategory]) -> JSON {
        var out: [String: JSON] = [:]
        for key in taxonomyMembers { if let value = taxonomy.raw[key] { out[key] = value } }
        let parents = TaxonomyCategory.parents(of: categories)
        var seen: Set<String> = []
        out["categories"] = .array(
            categories.compactMap { category in
                guard seen.insert(category.id).inserted else { return nil }
                var entry: [String: JSON] = [:]
                for key in categoryMembers { if let value = category.raw[key], !value.isNull { entry[key] = value } }
                if let parent = parents[category.id] { entry["parentId"] = .string(parent) }
                return .object(entry)
            })
        return .object(out)
    }
}
