import OCEQCore

/// A line and column (1-based, counted in Unicode scalars) in a GraphQL document.
struct GraphQLLocation: Sendable, Hashable {
    var line: Int
    var column: Int

    /// `{"line": …, "column": …}`.
    var json: JSON { .object(["line": .int(line), "column": .int(column)]) }
}

/// One entry of a response's `errors`: a message, where in the query, and for execution errors
/// the response path of the field that failed.
struct GraphQLError: Error, Sendable {
    var message: String
    var locations: [GraphQLLocation]
    /// Response keys and list indices (execution errors only).
    var path: [JSON]?

    init(_ message: String, at locations: [GraphQLLocation] = [], path: [JSON]? = nil) {
        self.message = message
        self.locations = locations
        self.path = path
    }

    /// The error as the response writes it.
    var json: JSON {
        var object: [String: JSON] = ["message": .string(message)]
        if !locations.isEmpty { object["locations"] = .array(locations.map(\.json)) }
        if let path { object["path"] = .array(path) }
        return .object(object)
    }
}
