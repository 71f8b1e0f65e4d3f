// The executable document of a GraphQL request (October 2021 §2): operations, fragments, and the
// selections, arguments, values and directives inside them, each with where it starts.

/// A parsed executable document.
struct GraphQLDocument: Sendable {
    var operations: [GraphQLOperation]
    var fragments: [String: GraphQLFragment]
}

/// `query Name($v: T = default) @dir { … }` (or the shorthand `{ … }`).
struct GraphQLOperation: Sendable {
    var kind: String
    var name: String?
    var variables: [GraphQLVariableDefinition]
    var directives: [GraphQLDirective]
    var selections: [GraphQLSelection]
    var location: GraphQLLocation
}

/// `$name: Type = default`.
struct GraphQLVariableDefinition: Sendable {
    var name: String
    var type: GraphQLTypeReference
    var defaultValue: GraphQLValue?
    var location: GraphQLLocation
}

/// `fragment Name on Type { … }`.
struct GraphQLFragment: Sendable {
    var name: String
    var typeCondition: String
    var directives: [GraphQLDirective]
    var selections: [GraphQLSelection]
    var location: GraphQLLocation
}

/// One entry of a selection set.
enum GraphQLSelection: Sendable {
    case field(GraphQLField)
    case fragmentSpread(name: String, directives: [GraphQLDirective], location: GraphQLLocation)
    case inlineFragment(
        typeCondition: String?, directives: [GraphQLDirective], selections: [GraphQLSelection],
        location: GraphQLLocation)

    var directives: [GraphQLDirective] {
        switch self {
        case .field(let field): return field.directives
        case .fragmentSpread(_, let directives, _), .inlineFragment(_, let directives, _, _): return directives
        }
    }
}

/// `alias: name(arguments) @directives { selections }`.
struct GraphQLField: Sendable {
    var alias: String?
    var name: String
    var arguments: [GraphQLArgument]
    var directives: [GraphQLDirective]
    var selections: [GraphQLSelection]
    var location: GraphQLLocation

    /// The key of the field in the response.
    var responseKey: String { alias ?? name }
}

/// `name: value`.
struct GraphQLArgument: Sendable {
    var name: String
    var value: GraphQLValue
    var location: GraphQLLocation
}

/// `@name(arguments)`.
struct GraphQLDirective: Sendable {
    var name: String
    var arguments: [GraphQLArgument]
    var location: GraphQLLocation
}

/// A literal or variable in a document.
indirect enum GraphQLValue: Sendable, Equatable {
    case variable(String)
    case int(String)
    case float(String)
    case string(String)
    case boolean(Bool)
    case null
    case enumValue(String)
    case list([GraphQLValue])
    case object([GraphQLObjectMember])
}

/// One `name: value` of an input object literal.
struct GraphQLObjectMember: Sendable, Equatable {
    var name: String
    var value: GraphQLValue
}

/// A type as written in a variable definition or the schema: `Name`, `[T]`, `T!`.
indirect enum GraphQLTypeReference: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case list(GraphQLTypeReference)
    case nonNull(GraphQLTypeReference)

    /// The innermost named type.
    var namedType: String {
        switch self {
        case .named(let name): return name
        case .list(let inner), .nonNull(let inner): return inner.namedType
        }
    }

    /// The type without its outer `!`.
    var nullable: GraphQLTypeReference {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .named(let name): return name
        case .list(let inner): return "[\(inner)]"
        case .nonNull(let inner): return "\(inner)!"
        }
    }
}
