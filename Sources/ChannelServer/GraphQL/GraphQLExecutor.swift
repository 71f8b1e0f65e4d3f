// GraphQLExecutor: runs a validated operation (October 2021 §6) over item JSON.
//
// Values are JSON all the way down: root fields fetch items' Delivery JSON through the data
// source (the shaper and the index, as REST does), and each field's `GraphQLResolve` picks its
// value from the parent's JSON — a key, reference stubs resolved to their items, an asset's file
// and flattened renditions, or introspection. Fields are collected per the spec (aliases merged,
// `@skip`/`@include`, fragments applying to the run-time type), nulls propagate from non-null
// fields, and field errors carry their response path. The time and response-size limits are
// checked as fields complete; exceeding one stops the whole execution.

import Dispatch
import OCEQCore

/// Executes one operation.
final class GraphQLExecutor {
    let schema: GraphQLSchema
    let document: GraphQLDocument
    let source: GraphQLDataSource
    let limits: GraphQLLimits
    private(set) var errors: [GraphQLError] = []
    private var variables: [String: JSON] = [:]
    private var bytes = 0
    private let deadline: UInt64
    /// Items already fetched in this request, by id.
    var items: [String: JSON] = [:]

    /// A limit hit during execution: the answer is this error alone.
    struct LimitExceeded: Error {
        var error: GraphQLError
    }

    init(schema: GraphQLSchema, document: GraphQLDocument, source: GraphQLDataSource, limits: GraphQLLimits) {
        self.schema = schema
        self.document = document
        self.source = source
        self.limits = limits
        deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limits.timeLimit) * 1e9)
    }

    /// Coerces the request's variables (§6.1.2); errors name the variable.
    func coerceVariables(_ operation: GraphQLOperation, _ given: [String: JSON]) -> [GraphQLError] {
        var problems: [GraphQLError] = []
        for definition in operation.variables {
            if let value = given[definition.name] {
                if let problem = checkInput(value, definition.type) {
                    problems.append(
                        GraphQLError(
                            "Variable \"$\(definition.name)\" got invalid value \(String(decoding: JSONWriter().bytes(value), as: UTF8.self).prefix(80)); \(problem)",
                            at: [definition.location]))
                } else {
                    variables[definition.name] = value
                }
            } else if let defaultValue = definition.defaultValue {
                variables[definition.name] = json(defaultValue)
            } else if definition.type.isNonNull {
                problems.append(
                    GraphQLError(
                        "Variable \"$\(definition.name)\" of required type \"\(definition.type)\" was not provided.",
                        at: [definition.location]))
            }
        }
        return problems
    }

    /// Why a JSON variable value does not fit `type`, or nil.
    private func checkInput(_ value: JSON, _ type: GraphQLTypeReference) -> String? {
        switch type {
        case .nonNull(let inner):
            if value.isNull { return "Expected non-nullable type \"\(type)\" not to be null." }
            return checkInput(value, inner)
        case .list(let inner):
            if value.isNull { return nil }
            if case .array(let elements) = value {
                for element in elements { if let problem = checkInput(element, inner) { return problem } }
                return nil
            }
            return checkInput(value, inner)
        case .named(let name):
            if value.isNull { return nil }
            guard let named = schema.types[name] else { return "unknown type \(name)" }
            switch (named.kind, name, value) {
            case (.scalar, "Int", .int(let n)): return Int32(exactly: n) == nil ? "Int cannot represent it" : nil
            case (.scalar, "Float", .int), (.scalar, "Float", .double), (.scalar, "String", .string),
                (.scalar, "Boolean", .bool), (.scalar, "ID", .string), (.scalar, "ID", .int), (.scalar, "JSON", _):
                return nil
            case (.scalar, _, _): return "\(name) cannot represent it."
            case (.enumeration, _, .string(let text)):
                return named.enumValues.contains(text) ? nil : "Value \"\(text)\" does not exist in \"\(name)\" enum."
            case (.inputObject, _, .object(let members)):
                for (key, member) in members {
                    guard let field = named.inputField(key) else {
                        return "Field \"\(key)\" is not defined by type \"\(name)\"."
                    }
                    if let problem = checkInput(member, field.type) { return problem }
                }
                for field in named.inputFields where field.type.isNonNull && members[field.name] == nil {
                    return "Field \"\(field.name)\" of required type \"\(field.type)\" was not provided."
                }
                return nil
            default: return "Expected type \"\(name)\"."
            }
        }
    }

    /// A document value as JSON, variables substituted (an unset variable is null).
    func json(_ value: GraphQLValue) -> JSON {
        switch value {
        case .variable(let name): return variables[name] ?? .null
        case .int(let text): return Int(text).map { .int($0) } ?? .double(Double(text) ?? 0)
        case .float(let text): return .double(Double(text) ?? 0)
        case .string(let text), .enumValue(let text): return .string(text)
        case .boolean(let flag): return .bool(flag)
        case .null: return .null
        case .list(let elements): return .array(elements.map(json))
        case .object(let members):
            var object: [String: JSON] = [:]
            for member in members {
                if case .variable(let name) = member.value, variables[name] == nil { continue }
                object[member.name] = json(member.value)
            }
            return .object(object)
        }
    }

    /// `data` for the operation (nil when a non-null root field failed).
    func execute(_ operation: GraphQLOperation) throws(LimitExceeded) -> GraphQLResult? {
        let root = schema.types[GraphQLSchema.queryTypeName]!
        return try selectionSet(operation.selections, type: root, value: .object([:]), path: [])
    }

    private func selectionSet(
        _ selections: [GraphQLSelection], type: GraphQLNamedType, value: JSON, path: [JSON]
    ) throws(LimitExceeded) -> GraphQLResult? {
        var grouped: [(String, [GraphQLField])] = []
        var visited: Set<String> = []
        collect(selections, type, &grouped, &visited)
        var members: [(String, GraphQLResult)] = []
        for (key, fields) in grouped {
            guard let definition = schema.field(fields[0].name, on: type) else { continue }
            let fieldPath = path + [.string(key)]
            let result = try field(definition, fields, parentType: type, parent: value, path: fieldPath)
            guard let result else {
                if definition.type.isNonNull { return nil }
                members.append((key, .value(.null)))
                continue
            }
            members.append((key, result))
        }
        return .object(members)
    }

    /// CollectFields (§6.3.2).
    private func collect(
        _ selections: [GraphQLSelection], _ type: GraphQLNamedType, _ grouped: inout [(String, [GraphQLField])],
        _ visited: inout Set<String>
    ) {
        for selection in selections where included(selection.directives) {
            switch selection {
            case .field(let field):
                if let index = grouped.firstIndex(where: { $0.0 == field.responseKey }) {
                    grouped[index].1.append(field)
                } else {
                    grouped.append((field.responseKey, [field]))
                }
            case .fragmentSpread(let name, _, _):
                guard visited.insert(name).inserted, let fragment = document.fragments[name],
                    applies(fragment.typeCondition, to: type)
                else { continue }
                collect(fragment.selections, type, &grouped, &visited)
            case .inlineFragment(let condition, _, let inner, _):
                if let condition, !applies(condition, to: type) { continue }
                collect(inner, type, &grouped, &visited)
            }
        }
    }

    private func applies(_ condition: String, to type: GraphQLNamedType) -> Bool {
        guard let conditionType = schema.types[condition] else { return false }
        return schema.possibleTypes(conditionType).contains(type.name)
    }

    private func included(_ directives: [GraphQLDirective]) -> Bool {
        for directive in directives {
            let condition = directive.arguments.first { $0.name == "if" }.map { json($0.value) }
            if directive.name == "skip", condition == .bool(true) { return false }
            if directive.name == "include", condition != .bool(true) { return false }
        }
        return true
    }

    private func checkTime(_ location: GraphQLLocation) throws(LimitExceeded) {
        if DispatchTime.now().uptimeNanoseconds > deadline {
            throw LimitExceeded(
                error: GraphQLError(
                    "The query ran longer than \(limits.timeLimit) s and was stopped (limit timeLimit).",
                    at: [location]))
        }
    }

    private func count(_ value: JSON, _ key: String, _ location: GraphQLLocation) throws(LimitExceeded) {
        switch value {
        case .string(let text): bytes += text.utf8.count + key.utf8.count + 6
        case .object, .array: bytes += JSONWriter().bytes(value).count + key.utf8.count + 4
        default: bytes += key.utf8.count + 12
        }
        if bytes > limits.maximumResponseBytes {
            throw LimitExceeded(
                error: GraphQLError(
                    "The response would be larger than \(limits.maximumResponseBytes) bytes (limit maximumResponseBytes); select fewer fields or items.",
                    at: [location]))
        }
    }

    /// Resolves and completes one field; nil is a null (error recorded when the field is non-null).
    private func field(
        _ definition: GraphQLFieldDefinition, _ fields: [GraphQLField], parentType: GraphQLNamedType, parent: JSON,
        path: [JSON]
    ) throws(LimitExceeded) -> GraphQLResult? {
        let field = fields[0]
        try checkTime(field.location)
        var arguments: [String: JSON] = [:]
        for argument in field.arguments {
            if case .variable(let name) = argument.value, variables[name] == nil { continue }
            arguments[argument.name] = json(argument.value)
        }
        for declared in definition.arguments where arguments[declared.name] == nil {
            if let defaultValue = declared.defaultValue { arguments[declared.name] = json(defaultValue) }
        }
        let resolved: JSON
        do {
            resolved = try resolve(definition, parentType, parent, arguments)
        } catch {
            errors.append(GraphQLError(error.message, at: [field.location], path: path))
            return nil
        }
        let result = try complete(definition.type, fields, resolved, path: path)
        if result == nil, definition.type.isNonNull, !resolved.isNull {
            // The null came from below; its error is recorded already.
        } else if result == nil, definition.type.isNonNull {
            errors.append(
                GraphQLError(
                    "Cannot return null for non-nullable field \(parentType.name).\(field.name).", at: [field.location],
                    path: path))
        }
        return result
    }

    private func complete(
        _ type: GraphQLTypeReference, _ fields: [GraphQLField], _ value: JSON, path: [JSON]
    ) throws(LimitExceeded) -> GraphQLResult? {
        let field = fields[0]
        switch type {
        case .nonNull(let inner):
            return try complete(inner, fields, value, path: path)
        case .list(let inner):
            if value.isNull { return nil }
            let elements = value.arrayValue ?? [value]
            var results: [GraphQLResult] = []
            results.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let completed = try complete(inner, fields, element, path: path + [.int(index)])
                if completed == nil, inner.isNonNull {
                    if !element.isNull { return nil }
                    errors.append(
                        GraphQLError(
                            "Cannot return null for non-nullable list element.", at: [field.location],
                            path: path + [.int(index)]))
                    return nil
                }
                results.append(completed ?? .value(.null))
            }
            return .list(results)
        case .named(let name):
            if value.isNull { return nil }
            guard let named = schema.types[name] else { return nil }
            if named.isLeaf {
                guard let leaf = coerce(value, named) else {
                    errors.append(
                        GraphQLError(
                            "\(name) cannot represent the value of this field.", at: [field.location], path: path))
                    return nil
                }
                try count(leaf, field.responseKey, field.location)
                return .value(leaf)
            }
            guard let runtime = runtimeType(named, value) else {
                errors.append(
                    GraphQLError(
                        "The value's type \(value["type"]?.stringValue ?? "?") is not in the schema.",
                        at: [field.location], path: path))
                return nil
            }
            var selections: [GraphQLSelection] = []
            for field in fields { selections += field.selections }
            bytes += field.responseKey.utf8.count + 4
            return try selectionSet(selections, type: runtime, value: value, path: path)
        }
    }

    /// The object type of a value of an abstract type: items by their `type`.
    private func runtimeType(_ declared: GraphQLNamedType, _ value: JSON) -> GraphQLNamedType? {
        if declared.kind == .object { return declared }
        guard let type = value["type"]?.stringValue, let name = schema.itemTypeNames[type] else { return nil }
        return schema.types[name]
    }

    /// A leaf value in the form its scalar or enum type serialises to.
    private func coerce(_ value: JSON, _ type: GraphQLNamedType) -> JSON? {
        switch (type.name, value) {
        case ("JSON", _): return value
        case ("Int", .int): return value
        case ("Int", .double(let d)): return Int(exactly: d).map { .int($0) }
        case ("Int", .string(let s)): return Int(s).map { .int($0) }
        case ("Float", .int(let n)): return .double(Double(n))
        case ("Float", .double): return value
        case ("Float", .string(let s)): return Double(s).map { .double($0) }
        case ("String", .string), ("ID", .string): return value
        case ("String", .int(let n)), ("ID", .int(let n)): return .string(String(n))
        case ("String", .double(let d)): return .string(String(d))
        case ("String", .bool(let b)): return .string(b ? "true" : "false")
        case ("Boolean", .bool): return value
        case ("Boolean", .string(let s)) where s == "true" || s == "false": return .bool(s == "true")
        default:
            if type.kind == .enumeration, case .string(let s) = value, type.enumValues.contains(s) { return value }
            return nil
        }
    }
}
