import OCEQShell

/// Asset inspection (issue 7, point 2): `show`, `fields`, `field`, `renditions`, `types`,
/// `taxonomies`, `categories`; and `preview` (issue 8).
package enum AssetModule {
    /// The module value the executable lists.
    package static let module = Module(
        name: "asset",
        commands: [
            ShowCommand.self, FieldsCommand.self, FieldCommand.self, RenditionsCommand.self, TypesCommand.self,
            TaxonomiesCommand.self, CategoriesCommand.self, PreviewCommand.self,
        ])
}
