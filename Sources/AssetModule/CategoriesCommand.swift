// `categories TAXONOMY`: the categories of one taxonomy (named by id, name or short name), all
// pages, in tree order and indented by depth.

import DeliveryKit
import OCEQCore
import OCEQLanguage
import OCEQShell

/// `categories`: the categories of one taxonomy.
package enum CategoriesCommand: Command {
    package static let descriptor = CommandDescriptor(
        name: "categories", abstract: "the categories of a taxonomy (by id, name or short name), as a tree",
        usage: "categories TAXONOMY", examples: ["categories CSG", "categories \"Café Supremo Guide\""]
    ).planning(AssetPlans.categories)

    package static func run(_ statement: Statement, in session: Session) async throws(ShellError) -> CommandResult {
        let command = try ItemLookup.command(statement, usage: descriptor.usage)
        guard let argument = command.arguments.first, let wanted = try ItemLookup.text(argument, in: session) else {
            throw .usage("categories needs a taxonomy: \(descriptor.usage)", span: .at(command.nameSpan.end))
        }
        if command.arguments.count > 1 {
            throw .usage("too many arguments: \(descriptor.usage)", span: command.arguments[1].span)
        }
        let taxonomies = try await TaxonomiesCommand.all(in: session)
        // As `taxonomies=NAME` reads a name: by id, name, short name, or the one name starting with or
        // containing it.
        let terms = taxonomies.map { TaxonomyTerm(name: $0.name, alias: $0.shortName, id: $0.id) }
        let match = TaxonomyNames.find(wanted, among: terms)
        if case .ambiguous(let indices) = match {
            throw .usage(
                TerminalText.clean(
                    "'\(wanted)' names more than one taxonomy (\(indices.map { taxonomies[$0].id }.joined(separator: ", "))); "
                        + "give its id"),
                span: argument.span)
        }
        guard case .found(let index) = match else {
            var suggestion: String?
            if case .none(let closest) = match { suggestion = closest }
            let names = taxonomies.map(\.name).joined(separator: ", ")
            throw .usage(
                TerminalText.clean(
                    "no taxonomy '\(wanted)' in this channel; "
                        + (suggestion.map { "did you mean '\($0)'? " } ?? "")
                        + (taxonomies.isEmpty ? "it has none" : "it has \(names)")),
                span: argument.span)
        }
        let taxonomy = taxonomies[index]
        let client = try session.requireConnection().client
        var categories: [TaxonomyCategory] = []
        do {
            for try await category in client.items(CategoriesCommand.request(taxonomyId: taxonomy.id)) {
                categories.append(category)
            }
        } catch {
            throw .delivery(error)
        }
        let parents = TaxonomyCategory.parents(of: categories)
        let ordered = tree(categories, parents: parents)
        let rows = ordered.map { category, depth in
            [
                String(repeating: "  ", count: depth) + TerminalText.clean(category.name),
                TerminalText.clean(category.apiName ?? ""), TerminalText.clean(category.id),
            ]
        }
        // csv: the name as it is and the parent's id beside it, not the screen's indent in the name.
        let plain = Table.Plain(
            columns: ["category", "api name", "id", "parent id"],
            rows: ordered.map { category, _ in
                [category.name, category.apiName ?? "", category.id, parents[category.id] ?? ""]
            })
        return .table(
            Table(
                columns: ["category", "api name", "id"], rows: rows, records: ordered.map { $0.0.json },
                title: TerminalText.clean("\(taxonomy.name) (\(taxonomy.id))"),
                footer: rows.isEmpty ? "(no categories)" : "(\(rows.count) categor\(rows.count == 1 ? "y" : "ies"))",
                plain: plain))
    }

    /// The search of a taxonomy's categories with their children inlined (`expand=all`, as Oracle's SDKs
    /// send it): a search entry need not name its `parent` or `ancestors` (OCM documents them for a read
    /// of one category; `oceq serve` shows them only when `fields` asks), so the children are what the
    /// tree is drawn from when they are missing.
    static func request(taxonomyId: String) -> ListTaxonomyCategories {
        DeliveryAPI.listTaxonomyCategories(taxonomyId: taxonomyId).expand(.all)
    }

    /// Categories in tree order (parents before their children, siblings by position then name),
    /// each with its depth; parents as `TaxonomyCategory.parents(of:)` reads them (`known`, when the
    /// caller has them already). When nothing tells any parent (a server that
    /// ignored `expand`), the server's order is kept, flat: sorting them by position would mix levels.
    nonisolated static func tree(
        _ categories: [TaxonomyCategory], parents known: [String: String]? = nil
    ) -> [(TaxonomyCategory, Int)] {
        let parents = known ?? TaxonomyCategory.parents(of: categories)
        func parent(of category: TaxonomyCategory) -> String? { parents[category.id] }
        if categories.allSatisfy({ parent(of: $0) == nil }) { return categories.map { ($0, 0) } }
        let ids = Set(categories.map(\.id))
        var children: [String: [TaxonomyCategory]] = [:]
        for category in categories {
            children[parent(of: category).flatMap { ids.contains($0) ? $0 : nil } ?? "", default: []].append(category)
        }
        var out: [(TaxonomyCategory, Int)] = []
        var shown: Set<String> = []
        func visit(_ parent: String, _ depth: Int) {
            let sorted = (children[parent] ?? []).sorted {
                ($0.position ?? 0, $0.name) < ($1.position ?? 0, $1.name)
            }
            for category in sorted where shown.insert(category.id).inserted {
                out.append((category, depth))
                if depth < 32 { visit(category.id, depth + 1) }
            }
        }
        visit("", 0)
        // Categories in a loop of parents (a broken answer) reach no root: shown after the tree, flat.
        for category in categories where shown.insert(category.id).inserted { out.append((category, 0)) }
        return out
    }
}
