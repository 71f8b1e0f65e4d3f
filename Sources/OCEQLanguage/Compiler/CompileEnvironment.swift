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
}

/// A fixed environment: a dictionary of variables, the ids of the last listing, and arguments.
package struct StaticEnvironment: CompileEnvironment, Sendable, Hashable {
    /// Variable values by name (without `$`).
    package var variables: [String: String]
    /// Ids of the rows of the last listing, in order; nil when there has been no listing.
    package var rows: [String]?
    /// The script's arguments, `$1` first.
    package var arguments: [String]

    /// An environment holding the given state.
    package init(variables: [String: String] = [:], rows: [String]? = nil, arguments: [String] = []) {
        self.variables = variables
        self.rows = rows
        self.arguments = arguments
    }

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
