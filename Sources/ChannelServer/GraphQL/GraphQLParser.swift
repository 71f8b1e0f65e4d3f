// GraphQLParser: recursive descent over GraphQLLexer's tokens into a GraphQLDocument (executable
// definitions only; a type-system definition is a syntax error, as for any GraphQL server).
// Nesting of selection sets, lists and objects is capped, so a hostile document cannot exhaust
// the stack; the depth limit proper (GraphQLLimits) is checked by the validator.

/// Parses executable GraphQL documents.
struct GraphQLParser {
    private let tokens: [GraphQLToken]
    private var position = 0
    private var nesting = 0
    /// Brackets nested deeper than this are a syntax error.
    static let maximumNesting = 64

    private init(tokens: [GraphQLToken]) {
        self.tokens = tokens
    }

    /// Parses `source`; a syntax error carries its location.
    static func parse(_ source: String) throws(GraphQLError) -> GraphQLDocument {
        var parser = GraphQLParser(tokens: try GraphQLLexer.tokens(source))
        return try parser.document()
    }

    private var token: GraphQLToken { tokens[position] }

    private func unexpected(_ expected: String? = nil) -> GraphQLError {
        let what = expected.map { "Expected \($0), found \(token.described)." } ?? "Unexpected \(token.described)."
        return GraphQLError("Syntax Error: \(what)", at: [token.location])
    }

    private func peek(_ punctuator: String) -> Bool {
        token.kind == .punctuator && token.text == punctuator
    }

    private mutating func skip(_ punctuator: String) -> Bool {
        guard peek(punctuator) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ punctuator: String) throws(GraphQLError) {
        guard skip(punctuator) else { throw unexpected("\"\(punctuator)\"") }
    }

    private mutating func name() throws(GraphQLError) -> String {
        guard token.kind == .name else { throw unexpected("Name") }
        defer { position += 1 }
        return token.text
    }

    private mutating func enter() throws(GraphQLError) {
        nesting += 1
        guard nesting <= Self.maximumNesting else {
            throw GraphQLError(
                "Syntax Error: the query nests brackets deeper than \(Self.maximumNesting) levels.",
                at: [token.location])
        }
    }

    private mutating func document() throws(GraphQLError) -> GraphQLDocument {
        var operations: [GraphQLOperation] = []
        var fragments: [String: GraphQLFragment] = [:]
        if token.kind == .end { throw unexpected("\"{\", \"query\", \"mutation\", \"subscription\" or \"fragment\"") }
        while token.kind != .end {
            if peek("{") {
                let location = token.location
                operations.append(
                    GraphQLOperation(
                        kind: "query", name: nil, variables: [], directives: [], selections: try selectionSet(),
                        location: location))
                continue
            }
            guard token.kind == .name else { throw unexpected() }
            switch token.text {
            case "query", "mutation", "subscription":
                operations.append(try operation())
            case "fragment":
                let fragment = try fragmentDefinition()
                guard fragments[fragment.name] == nil else {
                    throw GraphQLError(
                        "There can be only one fragment named \"\(fragment.name)\".", at: [fragment.location])
                }
                fragments[fragment.name] = fragment
            default:
                throw unexpected()
            }
        }
        return GraphQLDocument(operations: operations, fragments: fragments)
    }

    private mutating func operation() throws(GraphQLError) -> GraphQLOperation {
        let location = token.location
        let kind = try name()
        let operationName = token.kind == .name ? try name() : nil
        var variables: [GraphQLVariableDefinition] = []
        if skip("(") {
            repeat {
                let at = token.location
                try expect("$")
                let variable = try name()
                try expect(":")
                let type = try typeReference()
                let defaultValue = skip("=") ? try value(constant: true) : nil
                _ = try directives()
                variables.append(
                    GraphQLVariableDefinition(name: variable, type: type, defaultValue: defaultValue, location: at))
            } while !skip(")")
        }
        return GraphQLOperation(
            kind: kind, name: operationName, variables: variables, directives: try directives(),
            selections: try selectionSet(), location: location)
    }

    private mutating func fragmentDefinition() throws(GraphQLError) -> GraphQLFragment {
        let location = token.location
        position += 1
        guard token.kind == .name, token.text != "on" else { throw unexpected("a fragment name") }
        let fragmentName = try name()
        guard token.kind == .name, token.text == "on" else { throw unexpected("\"on\"") }
        position += 1
        let condition = try name()
        return GraphQLFragment(
            name: fragmentName, typeCondition: condition, directives: try directives(), selections: try selectionSet(),
            location: location)
    }

    private mutating func typeReference() throws(GraphQLError) -> GraphQLTypeReference {
        var type: GraphQLTypeReference
        if skip("[") {
            try enter()
            type = .list(try typeReference())
            try expect("]")
            nesting -= 1
        } else {
            type = .named(try name())
        }
        if skip("!") { type = .nonNull(type) }
        return type
    }

    private mutating func selectionSet() throws(GraphQLError) -> [GraphQLSelection] {
        try expect("{")
        try enter()
        var selections: [GraphQLSelection] = []
        repeat { selections.append(try selection()) } while !skip("}")
        nesting -= 1
        return selections
    }

    private mutating func selection() throws(GraphQLError) -> GraphQLSelection {
        let location = token.location
        if skip("...") {
            if token.kind == .name, token.text != "on" {
                return .fragmentSpread(name: try name(), directives: try directives(), location: location)
            }
            var condition: String?
            if token.kind == .name, token.text == "on" {
                position += 1
                condition = try name()
            }
            return .inlineFragment(
                typeCondition: condition, directives: try directives(), selections: try selectionSet(),
                location: location)
        }
        var fieldName = try name()
        var alias: String?
        if skip(":") {
            alias = fieldName
            fieldName = try name()
        }
        let arguments = try self.arguments(constant: false)
        let fieldDirectives = try directives()
        let selections = peek("{") ? try selectionSet() : []
        return .field(
            GraphQLField(
                alias: alias, name: fieldName, arguments: arguments, directives: fieldDirectives,
                selections: selections, location: location))
    }

    private mutating func arguments(constant: Bool) throws(GraphQLError) -> [GraphQLArgument] {
        guard skip("(") else { return [] }
        var result: [GraphQLArgument] = []
        repeat {
            let location = token.location
            let argumentName = try name()
            try expect(":")
            result.append(GraphQLArgument(name: argumentName, value: try value(constant: constant), location: location))
        } while !skip(")")
        return result
    }

    private mutating func directives() throws(GraphQLError) -> [GraphQLDirective] {
        var result: [GraphQLDirective] = []
        while peek("@") {
            let location = token.location
            position += 1
            result.append(
                GraphQLDirective(name: try name(), arguments: try arguments(constant: false), location: location))
        }
        return result
    }

    private mutating func value(constant: Bool) throws(GraphQLError) -> GraphQLValue {
        let current = token
        switch current.kind {
        case .int:
            position += 1
            return .int(current.text)
        case .float:
            position += 1
            return .float(current.text)
        case .string, .blockString:
            position += 1
            return .string(current.text)
        case .name:
            position += 1
            switch current.text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            case "null": return .null
            default: return .enumValue(current.text)
            }
        case .punctuator:
            if current.text == "$", !constant {
                position += 1
                return .variable(try name())
            }
            if skip("[") {
                try enter()
                var elements: [GraphQLValue] = []
                while !skip("]") { elements.append(try value(constant: constant)) }
                nesting -= 1
                return .list(elements)
            }
            if skip("{") {
                try enter()
                var members: [GraphQLObjectMember] = []
                while !skip("}") {
                    let memberName = try name()
                    try expect(":")
                    members.append(GraphQLObjectMember(name: memberName, value: try value(constant: constant)))
                }
                nesting -= 1
                return .object(members)
            }
            throw unexpected()
        case .end:
            throw unexpected()
        }
    }
}
