/// What a variable holds, as far as the compiler is concerned.
package enum VariableLookup: Sendable, Hashable {
    /// A value usable in a condition (for a variable bound to one item, the shell passes its id).
    case value(String)
    /// Something that is not a single value; the text says what (`"a listing of 5 rows"`).
    case notAValue(String)
    /// No such variable.
    case undefined
}

/// What row `@n` refers to.
package enum RowLookup: Sendable, Hashable {
    /// The id of the item on that row.
    case id(String)
    /// There has been no listing yet.
    case noListing
    /// The last listing has fewer rows.
    case outOfRange(rows: Int)
}

/// The session state the compiler resolves references against: variables (`$name`), rows of the
/// last listing (`@n`) and script arguments (`$1`..`$9`). The shell implements it over its session;
/// tests use `StaticEnvironment`.
package protocol CompileEnvironment {
    /// The variable `name` (without `$`).
    func variable(_ name: String) -> VariableLookup
    /// Row `number` (from 1) of the last listing.
    func row(_ number: Int) -> RowLookup
    /// Script argument `number` (1–9), or nil when it was not given.
    func argument(_ number: Int) -> String?
    /// How many script arguments were given.
    var argumentCount: Int { get }
    /// Every defined variable name, for "did you mean".
    var variableNames: [String] { get }
    /// The channel's types and fields, for the checks of names, operators and values; nil when they
    /// are not known (the statement is compiled unchecked).
    var schema: ChannelSchema? { get }
    /// The names and ids of the items of `type`, for a reference field compared with a name; nil when
    /// they are not known (the name is sent as written).
    func items(ofType type: String) -> [ItemName]?
    /// The channel's taxonomies and categories, for a taxonomy condition compared with a name; nil when
    /// they are not known (the name is sent as written).
    func taxonomyNames() -> TaxonomyNames?
    /// The name and type of the item on row `number` of the last listing; nil when not known.
    func rowItem(_ number: Int) -> ReferencedItem?
    /// The name and type of the item variable `name` is bound to; nil when it holds no item.
    func variableItem(_ name: String) -> ReferencedItem?
    /// True when references resolve to the values they hold, so those values can be checked like
    /// literals (`type=$t` against the type names, `topic=$1` resolved as a name); false when they
    /// stand for values not known yet (the check of a script before it runs).
    var referencesHoldValues: Bool { get }
}

extension CompileEnvironment {
    /// No schema: nothing is checked against the channel.
    package var schema: ChannelSchema? { nil }
    /// No names: a name compared with a reference field is sent as written.
    package func items(ofType type: String) -> [ItemName]? { nil }
    /// No taxonomies: a name compared with a taxonomy field is sent as written.
    package func taxonomyNames() -> TaxonomyNames? { nil }
    /// No rows known by type: `@n` is used as the id it is.
    package func rowItem(_ number: Int) -> ReferencedItem? { nil }
    /// No variables known by type: `$name` is used as the value it holds.
    package func variableItem(_ name: String) -> ReferencedItem? { nil }
    /// References hold the values they resolve to.
    package var referencesHoldValues: Bool { true }
}

/// A fixed environment: a dictionary of variables, the ids of the last listing, arguments, and
/// optionally a schema and the names of items by type.
package struct StaticEnvironment: CompileEnvironment, Sendable, Hashable {
    /// Variable values by name (without `$`).
    package var variables: [String: String]
    /// Ids of the rows of the last listing, in order; nil when there has been no listing.
    package var rows: [String]?
    /// The script's arguments, `$1` first.
    package var arguments: [String]
    /// The channel's types and fields, if known.
    package var schema: ChannelSchema?
    /// The items of each type, by type name.
    package var itemsByType: [String: [ItemName]]
    /// The name and type of rows of the last listing, by row number (from 1), where known.
    package var rowItems: [Int: ReferencedItem]
    /// The name and type of the items variables are bound to, by variable name.
    package var variableItems: [String: ReferencedItem]
    /// The channel's taxonomies and categories, if known.
    package var taxonomies: TaxonomyNames?

    /// An environment holding the given state.
    package init(
        variables: [String: String] = [:], rows: [String]? = nil, arguments: [String] = [],
        schema: ChannelSchema? = nil, itemsByType: [String: [ItemName]] = [:],
        rowItems: [Int: ReferencedItem] = [:], variableItems: [String: ReferencedItem] = [:],
        taxonomies: TaxonomyNames? = nil
    ) {
        self.variables = variables
        self.rows = rows
        self.arguments = arguments
        self.schema = schema
        self.itemsByType = itemsByType
        self.rowItems = rowItems
        self.variableItems = variableItems
        self.taxonomies = taxonomies
    }

    package func items(ofType type: String) -> [ItemName]? { itemsByType[type] }

    package func taxonomyNames() -> TaxonomyNames? { taxonomies }

    package func rowItem(_ number: Int) -> ReferencedItem? { rowItems[number] }

    package func variableItem(_ name: String) -> ReferencedItem? { variableItems[name] }

    package func variable(_ name: String) -> VariableLookup {
        variables[name].map(VariableLookup.value) ?? .undefined
    }

    package func row(_ number: Int) -> RowLookup {
        guard let rows else { return .noListing }
        guard number >= 1 && number <= rows.count else { return .outOfRange(rows: rows.count) }
        return .id(rows[number - 1])
    }

    package func argument(_ number: Int) -> String? {
        number >= 1 && number <= arguments.count ? arguments[number - 1] : nil
    }

    package var argumentCount: Int { arguments.count }

    package var variableNames: [String] { variables.keys.sorted() }
}
