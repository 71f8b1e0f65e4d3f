// GraphQLIntrospection: the `__schema` / `__type` answers (October 2021 §4.2). Named types are
// passed around as `{"__named": name}` and expanded only when a query looks inside one, so the
// recursive type graph is never built whole.

import OCEQCore

/// The introspection types and the JSON the executor reads them from.
enum GraphQLIntrospection {
    /// The directives the schema declares (`@skip`, `@include`).
    static let directives: [(name: String, description: String)] = [
        ("skip", "Leaves out the selection when `if` is true."),
        ("include", "Includes the selection only when `if` is true."),
    ]

    /// The object and enum types of introspection.
    static var types: [GraphQLNamedType] {
        let string = GraphQLTypeReference.named("String")
        let boolean = GraphQLTypeReference.nonNull(.named("Boolean"))
        let type = GraphQLTypeReference.named("__Type")
        let includeDeprecated = [
            GraphQLInputValue(name: "includeDeprecated", type: .named("Boolean"), defaultValue: .boolean(false))
        ]
        func object(
            _ name: String, _ fields: [(String, GraphQLTypeReference, [GraphQLInputValue])]
        )
            -> GraphQLNamedType
        {
            GraphQLNamedType(
                kind: .object, name: name,
                fields: fields.map {
                    GraphQLFieldDefinition(name: $0.0, arguments: $0.2, type: $0.1, resolve: .typeMember($0.0))
                })
        }
        func list(_ name: String) -> GraphQLTypeReference { .list(.nonNull(.named(name))) }
        return [
            object(
                "__Schema",
                [
                    ("description", string, []), ("types", .nonNull(list("__Type")), []),
                    ("queryType", .nonNull(type), []), ("mutationType", type, []), ("subscriptionType", type, []),
                    ("directives", .nonNull(list("__Directive")), []),
                ]),
            object(
                "__Type",
                [
                    ("kind", .nonNull(.named("__TypeKind")), []), ("name", string, []), ("description", string, []),
                    ("specifiedByURL", string, []), ("fields", list("__Field"), includeDeprecated),
                    ("interfaces", list("__Type"), []), ("possibleTypes", list("__Type"), []),
                    ("enumValues", list("__EnumValue"), includeDeprecated),
                    ("inputFields", list("__InputValue"), includeDeprecated), ("ofType", type, []),
                ]),
            object(
                "__Field",
                [
                    ("name", .nonNull(string), []), ("description", string, []),
                    ("args", .nonNull(list("__InputValue")), includeDeprecated), ("type", .nonNull(type), []),
                    ("isDeprecated", boolean, []), ("deprecationReason", string, []),
                ]),
            object(
                "__InputValue",
                [
                    ("name", .nonNull(string), []), ("description", string, []), ("type", .nonNull(type), []),
                    ("defaultValue", string, []), ("isDeprecated", boolean, []), ("deprecationReason", string, []),
                ]),
            object(
                "__EnumValue",
                [
                    ("name", .nonNull(string), []), ("description", string, []), ("isDeprecated", boolean, []),
                    ("deprecationReason", string, []),
                ]),
            object(
                "__Directive",
                [
                    ("name", .nonNull(string), []), ("description", string, []),
                    ("locations", .nonNull(list("__DirectiveLocation")), []),
                    ("args", .nonNull(list("__InputValue")), includeDeprecated), ("isRepeatable", boolean, []),
                ]),
            GraphQLNamedType(
                kind: .enumeration, name: "__TypeKind",
                enumValues: ["SCALAR", "OBJECT", "INTERFACE", "UNION", "ENUM", "INPUT_OBJECT", "LIST", "NON_NULL"]),
            GraphQLNamedType(
                kind: .enumeration, name: "__DirectiveLocation",
                enumValues: [
                    "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD",
                    "INLINE_FRAGMENT", "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION",
                    "ARGUMENT_DEFINITION", "INTERFACE", "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT",
                    "INPUT_FIELD_DEFINITION",
                ]),
        ]
    }

    /// `__schema`.
    static func schema(_ schema: GraphQLSchema) -> JSON {
        .object([
            "description": .null,
            "types": .array(schema.types.keys.sorted().map { named($0) }),
            "queryType": named(GraphQLSchema.queryTypeName), "mutationType": .null, "subscriptionType": .null,
            "directives": .array(
                directives.map { directive in
                    .object([
                        "name": .string(directive.name), "description": .string(directive.description),
                        "locations": ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"],
                        "args": [
                            inputValue(GraphQLInputValue(name: "if", type: .nonNull(.named("Boolean"))))
                        ],
                        "isRepeatable": false,
                    ])
                }),
        ])
    }

    /// A reference to a named type, expanded by `expand` when read.
    static func named(_ name: String) -> JSON { .object(["__named": .string(name)]) }

    /// A type reference as `__Type` JSON.
    static func reference(_ type: GraphQLTypeReference) -> JSON {
        switch type {
        case .named(let name): return named(name)
        case .list(let inner): return .object(["kind": "LIST", "name": .null, "ofType": reference(inner)])
        case .nonNull(let inner): return .object(["kind": "NON_NULL", "name": .null, "ofType": reference(inner)])
        }
    }

    /// `value` itself, or the full `__Type` of the named type it stands for.
    static func expand(_ value: JSON, _ schema: GraphQLSchema) -> JSON {
        guard let name = value["__named"]?.stringValue else { return value }
        guard let type = schema.types[name] else { return .null }
        let composite = type.kind == .object || type.kind == .interface
        let fields: JSON =
            composite
            ? .array(
                type.fields.map { field in
                    .object([
                        "name": .string(field.name), "description": field.description.map { .string($0) } ?? .null,
                        "args": .array(field.arguments.map(inputValue)), "type": reference(field.type),
                        "isDeprecated": false, "deprecationReason": .null,
                    ])
                }) : .null
        return .object([
            "kind": .string(type.kind.rawValue), "name": .string(type.name),
            "description": type.description.map { .string($0) } ?? .null, "specifiedByURL": .null,
            "fields": fields,
            "interfaces": type.kind == .object || type.kind == .interface
                ? .array(type.interfaces.map(named)) : .null,
            "possibleTypes": type.kind == .interface || type.kind == .union
                ? .array(type.possibleTypes.map(named)) : .null,
            "enumValues": type.kind == .enumeration
                ? .array(
                    type.enumValues.map {
                        .object([
                            "name": .string($0), "description": .null, "isDeprecated": false,
                            "deprecationReason": .null,
                        ])
                    }) : .null,
            "inputFields": type.kind == .inputObject ? .array(type.inputFields.map(inputValue)) : .null,
            "ofType": .null,
        ])
    }

    static func inputValue(_ value: GraphQLInputValue) -> JSON {
        .object([
            "name": .string(value.name), "description": value.description.map { .string($0) } ?? .null,
            "type": reference(value.type),
            "defaultValue": value.defaultValue.map { .string(literal($0)) } ?? .null,
            "isDeprecated": false, "deprecationReason": .null,
        ])
    }

    /// A value as GraphQL source text.
    static func literal(_ value: GraphQLValue) -> String {
        switch value {
        case .variable(let name): return "$" + name
        case .int(let text), .float(let text), .enumValue(let text): return text
        case .string(let text): return String(decoding: JSONWriter().bytes(.string(text)), as: UTF8.self)
        case .boolean(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .list(let elements): return "[" + elements.map(literal).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { "\($0.name): \(literal($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}
