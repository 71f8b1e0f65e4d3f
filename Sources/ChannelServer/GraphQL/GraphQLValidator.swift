// GraphQLValidator: the validation rules of October 2021 §5 that a request can break against this
// schema — operation selection, known fields, arguments, argument and variable types, defined and
// used variables, known fragments on possible types, no fragment cycles, leaf and composite
// selections, known directives — and the limits on depth, fields and aliases (GraphQLLimits).
// The walk expands fragments where they are spread, and stops when a limit is exceeded, so a
// document of fragments that multiply cannot make it run long.
// An unknown type, field or argument gets graphql-js's `Did you mean "X"?` where one is close; a
// content type named as OCM spells it (`OCEGettingStartedArticle`) gets its GraphQL name
// (`oCEGettingStartedArticle`), and a custom field asked on the item (`topic`) its place under
// `fields`.

import OCEQCore

/// Checks one operation of a document against the schema.
struct GraphQLValidator {
    let schema: GraphQLSchema
    let document: GraphQLDocument
    let limits: GraphQLLimits
    private(set) var errors: [GraphQLError] = []
    private var fieldCount = 0
    private var aliasCount = 0
    private var variableTypes: [String: GraphQLVariableDefinition] = [:]
    private var usedVariables: Set<String> = []
    private var usedFragments: Set<String> = []
    private var operationName: String?
    private var limitHit = false

    /// A limit error stops the walk.
    private struct LimitExceeded: Error {}

    init(schema: GraphQLSchema, document: GraphQLDocument, limits: GraphQLLimits) {
        self.schema = schema
        self.document = document
        self.limits = limits
    }

    /// The operation `name` picks (the only one when nil), or the error why none.
    static func operation(_ document: GraphQLDocument, named name: String?) throws(GraphQLError) -> GraphQLOperation {
        var seen: Set<String> = []
        for operation in document.operations {
            if let name = operation.name {
                guard seen.insert(name).inserted else {
                    throw GraphQLError("There can be only one operation named \"\(name)\".", at: [operation.location])
                }
            } else if document.operations.count > 1 {
                throw GraphQLError(
                    "This anonymous operation must be the only defined operation.", at: [operation.location])
            }
        }
        if let name, !name.isEmpty {
            guard let found = document.operations.first(where: { $0.name == name }) else {
                throw GraphQLError("Unknown operation named \"\(name)\".")
            }
            return found
        }
        guard document.operations.count == 1 else {
            throw GraphQLError(
                document.operations.isEmpty
                    ? "The document has no operation to run."
                    : "Must provide operation name if query contains multiple operations.")
        }
        return document.operations[0]
    }

    /// Validates `operation`; the errors are in `errors`.
    mutating func validate(_ operation: GraphQLOperation) {
        operationName = operation.name
        guard operation.kind == "query" else {
            record("Schema is not configured to execute \(operation.kind) operation.", operation.location)
            return
        }
        for definition in operation.variables {
            if variableTypes[definition.name] != nil {
                record("There can be only one variable named \"$\(definition.name)\".", definition.location)
            }
            variableTypes[definition.name] = definition
            guard let type = schema.types[definition.type.namedType] else {
                record(
                    "Unknown type \"\(definition.type.namedType)\"." + typeHint(definition.type.namedType),
                    definition.location)
                continue
            }
            if !type.isInput {
                record(
                    "Variable \"$\(definition.name)\" cannot be non-input type \"\(definition.type)\".",
                    definition.location)
            } else if let value = definition.defaultValue, let problem = check(value, against: definition.type) {
                record("Variable \"$\(definition.name)\" has an invalid default value: \(problem)", definition.location)
            }
        }
        for directive in operation.directives { checkDirective(directive, where: "QUERY") }
        do {
            try walk(operation.selections, parent: schema.types[GraphQLSchema.queryTypeName]!, depth: 0, path: [])
        } catch {
            return
        }
        for definition in operation.variables where !usedVariables.contains(definition.name) {
            record(
                "Variable \"$\(definition.name)\" is never used\(operationName.map { " in operation \"\($0)\"" } ?? "").",
                definition.location)
        }
        for (name, fragment) in document.fragments.sorted(by: { $0.key < $1.key }) where !usedFragments.contains(name) {
            // A fragment only another operation uses is fine.
            if document.operations.count == 1 { record("Fragment \"\(name)\" is never used.", fragment.location) }
        }
    }

    private mutating func record(_ message: String, _ location: GraphQLLocation) {
        if errors.count < 100 { errors.append(GraphQLError(message, at: [location])) }
    }

    private mutating func limit(_ message: String, _ location: GraphQLLocation) throws {
        record(message, location)
        limitHit = true
        throw LimitExceeded()
    }

    private mutating func walk(
        _ selections: [GraphQLSelection], parent: GraphQLNamedType, depth: Int, path: [String]
    ) throws {
        // Fields of one selection set sharing a response key must be the same field with the same
        // arguments (the part of "field selection merging", §5.3.2, that needs no fragments).
        var keys: [String: GraphQLField] = [:]
        for case .field(let field) in selections {
            guard let earlier = keys[field.responseKey] else {
                keys[field.responseKey] = field
                continue
            }
            let sameArguments =
                earlier.arguments.map { "\($0.name):\(GraphQLIntrospection.literal($0.value))" }.sorted()
                == field.arguments.map { "\($0.name):\(GraphQLIntrospection.literal($0.value))" }.sorted()
            if earlier.name != field.name || !sameArguments {
                record(
                    "Fields \"\(field.responseKey)\" conflict because they are different fields or have different arguments. Use different aliases on the fields to fetch both if this was intentional.",
                    field.location)
            }
        }
        for selection in selections {
            for directive in selection.directives {
                switch selection {
                case .field: checkDirective(directive, where: "FIELD")
                case .fragmentSpread: checkDirective(directive, where: "FRAGMENT_SPREAD")
                case .inlineFragment: checkDirective(directive, where: "INLINE_FRAGMENT")
                }
            }
            switch selection {
            case .field(let field):
                fieldCount += 1
                if fieldCount > limits.maximumFields {
                    try limit(
                        "The query selects more than \(limits.maximumFields) fields (limit maximumFields; fragments count each time they are spread).",
                        field.location)
                }
                if field.alias != nil {
                    aliasCount += 1
                    if aliasCount > limits.maximumAliases {
                        try limit(
                            "The query uses more than \(limits.maximumAliases) aliases (limit maximumAliases).",
                            field.location)
                    }
                }
                if depth + 1 > limits.maximumDepth {
                    try limit(
                        "The query nests fields deeper than \(limits.maximumDepth) levels (limit maximumDepth).",
                        field.location)
                }
                guard let definition = schema.field(field.name, on: parent) else {
                    record(
                        "Cannot query field \"\(field.name)\" on type \"\(parent.name)\"."
                            + fieldHint(field.name, on: parent),
                        field.location)
                    continue
                }
                checkArguments(field, definition, parent)
                guard let type = schema.named(definition.type) else { continue }
                if type.isLeaf, !field.selections.isEmpty {
                    record(
                        "Field \"\(field.name)\" must not have a selection since type \"\(definition.type)\" has no subfields.",
                        field.location)
                } else if type.isComposite, field.selections.isEmpty {
                    record(
                        "Field \"\(field.name)\" of type \"\(definition.type)\" must have a selection of subfields. Did you mean \"\(field.name) { ... }\"?",
                        field.location)
                } else if type.isComposite {
                    try walk(field.selections, parent: type, depth: depth + 1, path: path)
                }
            case .fragmentSpread(let name, _, let location):
                usedFragments.insert(name)
                guard let fragment = document.fragments[name] else {
                    record("Unknown fragment \"\(name)\".", location)
                    continue
                }
                guard !path.contains(name) else {
                    record("Cannot spread fragment \"\(name)\" within itself.", location)
                    continue
                }
                guard let condition = fragmentType(fragment.typeCondition, fragment.location, parent, name: name)
                else { continue }
                try walk(fragment.selections, parent: condition, depth: depth, path: path + [name])
            case .inlineFragment(let typeCondition, _, let selections, let location):
                var type = parent
                if let typeCondition {
                    guard let condition = fragmentType(typeCondition, location, parent, name: nil) else { continue }
                    type = condition
                }
                try walk(selections, parent: type, depth: depth, path: path)
            }
        }
    }

    /// The type a fragment applies to, when it exists, is composite and can overlap `parent`.
    private mutating func fragmentType(
        _ name: String, _ location: GraphQLLocation, _ parent: GraphQLNamedType, name fragment: String?
    ) -> GraphQLNamedType? {
        guard let type = schema.types[name] else {
            record("Unknown type \"\(name)\"." + typeHint(name), location)
            return nil
        }
        guard type.isComposite else {
            record(
                fragment.map { "Fragment \"\($0)\" cannot condition on non composite type \"\(name)\"." }
                    ?? "Fragment cannot condition on non composite type \"\(name)\".", location)
            return nil
        }
        guard !schema.possibleTypes(type).isDisjoint(with: schema.possibleTypes(parent)) else {
            let subject = fragment.map { "Fragment \"\($0)\"" } ?? "Fragment"
            record(
                "\(subject) cannot be spread here as objects of type \"\(parent.name)\" can never be of type \"\(name)\".",
                location)
            return nil
        }
        return type
    }

    private mutating func checkDirective(_ directive: GraphQLDirective, where location: String) {
        guard directive.name == "skip" || directive.name == "include" else {
            record("Unknown directive \"@\(directive.name)\".", directive.location)
            return
        }
        guard location != "QUERY" else {
            record("Directive \"@\(directive.name)\" may not be used on QUERY.", directive.location)
            return
        }
        let condition = directive.arguments.first { $0.name == "if" }
        for argument in directive.arguments where argument.name != "if" {
            record("Unknown argument \"\(argument.name)\" on directive \"@\(directive.name)\".", argument.location)
        }
        guard let condition else {
            record(
                "Directive \"@\(directive.name)\" argument \"if\" of type \"Boolean!\" is required, but it was not provided.",
                directive.location)
            return
        }
        if let problem = check(condition.value, against: .nonNull(.named("Boolean"))) {
            record("Argument \"if\" has an invalid value: \(problem)", condition.location)
        }
    }

    private mutating func checkArguments(
        _ field: GraphQLField, _ definition: GraphQLFieldDefinition, _ parent: GraphQLNamedType
    ) {
        var given: Set<String> = []
        for argument in field.arguments {
            guard given.insert(argument.name).inserted else {
                record("There can be only one argument named \"\(argument.name)\".", argument.location)
                continue
            }
            guard let declared = definition.argument(argument.name) else {
                let known = definition.arguments.map { "\"\($0.name)\"" }.joined(separator: ", ")
                record(
                    "Unknown argument \"\(argument.name)\" on field \"\(parent.name).\(field.name)\"."
                        + Self.didYouMean(argument.name, among: definition.arguments.map(\.name))
                        + (known.isEmpty ? "" : " Known arguments: \(known)."), argument.location)
                continue
            }
            if let problem = check(argument.value, against: declared.type) {
                record(
                    "Argument \"\(argument.name)\" of type \"\(declared.type)\" has an invalid value: \(problem)",
                    argument.location)
            }
        }
        for declared in definition.arguments
        where declared.type.isNonNull && declared.defaultValue == nil && !given.contains(declared.name) {
            record(
                "Field \"\(field.name)\" argument \"\(declared.name)\" of type \"\(declared.type)\" is required, but it was not provided.",
                field.location)
        }
    }

    /// Why `value` does not fit `type`, or nil when it does (variables: defined and compatible).
    private mutating func check(_ value: GraphQLValue, against type: GraphQLTypeReference) -> String? {
        if case .variable(let name) = value {
            usedVariables.insert(name)
            guard let definition = variableTypes[name] else {
                return "Variable \"$\(name)\" is not defined\(operationName.map { " by operation \"\($0)\"" } ?? "")."
            }
            let effective: GraphQLTypeReference =
                definition.defaultValue != nil && definition.defaultValue != .null && !definition.type.isNonNull
                ? .nonNull(definition.type) : definition.type
            guard Self.fits(effective, type) else {
                return
                    "Variable \"$\(name)\" of type \"\(definition.type)\" used in position expecting type \"\(type)\"."
            }
            return nil
        }
        switch type {
        case .nonNull(let inner):
            if value == .null { return "Expected value of type \"\(type)\", found null." }
            return check(value, against: inner)
        case .list(let inner):
            if value == .null { return nil }
            if case .list(let elements) = value {
                for element in elements { if let problem = check(element, against: inner) { return problem } }
                return nil
            }
            return check(value, against: inner)
        case .named(let name):
            if value == .null { return nil }
            guard let named = schema.types[name] else { return "Unknown type \"\(name)\"." + typeHint(name) }
            let shown = GraphQLIntrospection.literal(value)
            switch named.kind {
            case .scalar:
                switch (name, value) {
                case ("Int", .int(let text)):
                    return Int32(text) == nil ? "Int cannot represent non 32-bit signed integer value: \(shown)" : nil
                case ("Float", .int), ("Float", .float), ("String", .string), ("Boolean", .boolean), ("ID", .string),
                    ("ID", .int), ("JSON", _):
                    return nil
                default: return "\(name) cannot represent value: \(shown)"
                }
            case .enumeration:
                guard case .enumValue(let text) = value, named.enumValues.contains(text) else {
                    return "Value \(shown) does not exist in \"\(name)\" enum."
                }
                return nil
            case .inputObject:
                guard case .object(let members) = value else {
                    return "Expected value of type \"\(name)\", found \(shown)."
                }
                for member in members {
                    guard let field = named.inputField(member.name) else {
                        return "Field \"\(member.name)\" is not defined by type \"\(name)\"."
                    }
                    if let problem = check(member.value, against: field.type) { return problem }
                }
                for field in named.inputFields
                where field.type.isNonNull && field.defaultValue == nil
                    && !members.contains(where: { $0.name == field.name })
                {
                    return "Field \"\(name).\(field.name)\" of required type \"\(field.type)\" was not provided."
                }
                return nil
            default: return "\"\(name)\" is not an input type."
            }
        }
    }

    /// Whether a variable of type `variable` may be used where `location` is expected.
    static func fits(_ variable: GraphQLTypeReference, _ location: GraphQLTypeReference) -> Bool {
        switch (variable, location) {
        case (.nonNull(let v), .nonNull(let l)): return fits(v, l)
        case (_, .nonNull): return false
        case (.nonNull(let v), _): return fits(v, location)
        case (.list(let v), .list(let l)): return fits(v, l)
        case (.named(let v), .named(let l)): return v == l
        default: return false
        }
    }

    /// ` Did you mean "X"?` for the candidate closest to `word`, or nothing.
    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        Suggestions.closest(to: word, among: candidates).map { " Did you mean \"\($0)\"?" } ?? ""
    }

    /// The hint for an unknown type: the GraphQL name of a content type named as OCM spells it, else
    /// the closest type name (introspection's own types left out).
    private func typeHint(_ name: String) -> String {
        if let graphQLName = schema.itemTypeNames[name] { return " Did you mean \"\(graphQLName)\"?" }
        return Self.didYouMean(name, among: schema.types.keys.filter { !$0.hasPrefix("__") }.sorted())
    }

    /// The hint for an unknown field of `parent`: where an item type's custom field is asked on the
    /// item, its place under `fields`; else the closest field name.
    private func fieldHint(_ name: String, on parent: GraphQLNamedType) -> String {
        if let fields = parent.field("fields"), let type = schema.named(fields.type), type.field(name) != nil {
            return " Did you mean \"fields { \(name) }\"?"
        }
        return Self.didYouMean(name, among: parent.fields.map(\.name) + ["__typename"])
    }
}
