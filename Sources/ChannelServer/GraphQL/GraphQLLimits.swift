/// Bounds on one GraphQL request, so a hostile query cannot exhaust the server (README
/// "GraphQL"). Each error names the limit it hit.
public struct GraphQLLimits: Sendable {
    /// Nesting of fields, counted through fragments (`{ a { b } }` is depth 2).
    public var maximumDepth: Int
    /// Fields in the operation, each fragment counted every time it is spread.
    public var maximumFields: Int
    /// Aliased fields in the operation.
    public var maximumAliases: Int
    /// Bytes of the `data` in the response.
    public var maximumResponseBytes: Int
    /// Seconds the execution may run.
    public var timeLimit: Double

    public init(
        maximumDepth: Int = 20, maximumFields: Int = 2000, maximumAliases: Int = 100,
        maximumResponseBytes: Int = 8 << 20, timeLimit: Double = 1
    ) {
        self.maximumDepth = maximumDepth
        self.maximumFields = maximumFields
        self.maximumAliases = maximumAliases
        self.maximumResponseBytes = maximumResponseBytes
        self.timeLimit = timeLimit
    }
}
