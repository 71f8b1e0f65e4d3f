import OCEQShell

/// Asset inspection (issue 7, point 2): `show`, `fields`, `field`, `renditions`, `types`,
/// `taxonomies`, `categories`; and `preview` (issue 8).
public enum AssetModule {
    /// The module value the executable lists.
    public static let module = Module(
        name: "asset",
        commands: [
            ShowCommand.self, FieldsCommand.self, FieldCommand.self, RenditionsCommand.self, TypesCommand.self,
            TaxonomiesCommand.self, CategoriesCommand.self, PreviewCommand.self,
        ])
}
