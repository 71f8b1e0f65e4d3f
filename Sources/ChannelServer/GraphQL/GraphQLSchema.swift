import OCEQCore

/// How the executor finds a field's value.
enum GraphQLResolve: Sendable, Hashable {
    /// The member of the parent JSON object with this key.
    case key(String)
    /// A reference field (or list of them) of an item's `fields`: the stubs under this key resolved
    /// to the items they name.
    case reference(String)
    /// A digital asset's native file: `url`, `mimeType`, `size`, `metadata { width height }`.
    case assetFile
    /// A digital asset's renditions, one entry per name and format.
    case assetRenditions
    /// Root fields.
    case getItem
    case getItems
    case getTyped(String)
    /// Introspection: `__schema`, `__type(name:)`, `__typename`, and a member of a `__Type`.
    case schema
    case type
    case typeName
    case typeMember(String)
}

/// A field, argument or input field's definition.
struct GraphQLInputValue: Sendable {
    var name: String
    var description: String?
    var type: GraphQLTypeReference
    /// The default as GraphQL text (introspection's `defaultValue`), and as a value.
    var defaultValue: GraphQLValue?
}

/// A field of an object or interface type.
struct GraphQLFieldDefinition: Sendable {
    var name: String
    var description: String?
    var arguments: [GraphQLInputValue] = []
    var type: GraphQLTypeReference
    var resolve: GraphQLResolve

    func argument(_ name: String) -> GraphQLInputValue? { arguments.first { $0.name == name } }
}

/// A named type of the schema.
struct GraphQLNamedType: Sendable {
    enum Kind: String, Sendable {
        case scalar = "SCALAR"
        case object = "OBJECT"
        case interface = "INTERFACE"
        case union = "UNION"
        case enumeration = "ENUM"
        case inputObject = "INPUT_OBJECT"
    }

    var kind: Kind
    var name: String
    var description: String?
    var fields: [GraphQLFieldDefinition] = []
    var interfaces: [String] = []
    var possibleTypes: [String] = []
    var enumValues: [String] = []
    var inputFields: [GraphQLInputValue] = []

    func field(_ name: String) -> GraphQLFieldDefinition? { fields.first { $0.name == name } }
    func inputField(_ name: String) -> GraphQLInputValue? { inputFields.first { $0.name == name } }

    var isComposite: Bool { kind == .object || kind == .interface || kind == .union }
    var isLeaf: Bool { kind == .scalar || kind == .enumeration }
    var isInput: Bool { kind == .scalar || kind == .enumeration || kind == .inputObject }
}

/// The schema a channel answers: its named types (built-in scalars, introspection types, the
/// item types generated from the export) and the root query type.
struct GraphQLSchema: Sendable {
    static let queryTypeName = "Query"
    var types: [String: GraphQLNamedType]
    /// OCM type name → GraphQL object type name.
    var itemTypeNames: [String: String]

    /// The type a field definition's named type points at.
    func named(_ reference: GraphQLTypeReference) -> GraphQLNamedType? { types[reference.namedType] }

    /// The object types a composite type may be at run time.
    func possibleTypes(_ type: GraphQLNamedType) -> Set<String> {
        switch type.kind {
        case .object: return [type.name]
        case .interface, .union: return Set(type.possibleTypes)
        default: return []
        }
    }

    /// The field `name` of `type`, including the meta-fields every type has (`__typename`) and
    /// the root's (`__schema`, `__type`).
    func field(_ name: String, on type: GraphQLNamedType) -> GraphQLFieldDefinition? {
        if name == "__typename" {
            return GraphQLFieldDefinition(name: name, type: .nonNull(.named("String")), resolve: .typeName)
        }
        if type.name == Self.queryTypeName {
            if name == "__schema" {
                return GraphQLFieldDefinition(name: name, type: .nonNull(.named("__Schema")), resolve: .schema)
            }
            if name == "__type" {
                return GraphQLFieldDefinition(
                    name: name, arguments: [GraphQLInputValue(name: "name", type: .nonNull(.named("String")))],
                    type: .named("__Type"), resolve: .type)
            }
        }
        return type.field(name)
    }
}
