// The resolvers of GraphQLExecutor: each `GraphQLResolve` case reads its value from the parent's
// JSON or, for root fields, through the data source (REST's lookups, search and shaper).

import OCEQCore

extension GraphQLExecutor {
    /// The value of a field of `parent`, before completion.
    func resolve(
        _ definition: GraphQLFieldDefinition, _ parentType: GraphQLNamedType, _ parent: JSON,
        _ arguments: [String: JSON]
    ) throws(GraphQLError) -> JSON {
        switch definition.resolve {
        case .key(let key): return parent[key] ?? .null
        case .typeName: return .string(parentType.name)
        case .typeMember(let key): return GraphQLIntrospection.expand(parent, schema)[key] ?? .null
        case .schema: return GraphQLIntrospection.schema(schema)
        case .type:
            guard let name = arguments["name"]?.stringValue, schema.types[name] != nil else { return .null }
            return GraphQLIntrospection.named(name)
        case .reference(let key):
            let value = parent[key] ?? .null
            if case .array(let stubs) = value {
                return .array(try stubs.map { (stub) throws(GraphQLError) in try target(stub) })
            }
            return try target(value)
        case .assetFile: return Self.assetFile(parent)
        case .assetRenditions: return Self.renditions(parent)
        case .getItem: return try single(arguments, type: nil)
        case .getTyped(let type): return try single(arguments, type: type)
        case .getItems: return try search(arguments)
        }
    }

    /// The item a reference stub names (null when it is not in the channel).
    private func target(_ stub: JSON) throws(GraphQLError) -> JSON {
        guard let id = stub["id"]?.stringValue else { return .null }
        if let cached = items[id] { return cached }
        let item = try source.itemById(id) ?? .null
        items[id] = item
        return item
    }

    private func authorize(_ arguments: [String: JSON]) throws(GraphQLError) {
        guard source.authorized(arguments["channelToken"]?.stringValue) else {
            throw GraphQLError(
                arguments["channelToken"] == nil
                    ? "channelToken is required: give the argument channelToken, or the channelToken query parameter or header."
                    : "The channelToken is not this channel's token.")
        }
    }

    private func single(_ arguments: [String: JSON], type: String?) throws(GraphQLError) -> JSON {
        try authorize(arguments)
        let item: JSON?
        if let id = arguments["id"]?.stringValue {
            item = try source.itemById(id)
            guard let item else { throw GraphQLError("No item with id \"\(id.prefix(80))\" in this channel.") }
            if let type, item["type"]?.stringValue != type {
                throw GraphQLError(
                    "The item \(id.prefix(80)) is of type \(item["type"]?.stringValue ?? "?"), not \(type).")
            }
        } else if let slug = arguments["slug"]?.stringValue {
            item = try source.itemBySlug(slug)
            guard let item else { throw GraphQLError("No item with slug \"\(slug.prefix(80))\" in this channel.") }
            if let type, item["type"]?.stringValue != type {
                throw GraphQLError(
                    "The item with slug \(slug.prefix(80)) is of type \(item["type"]?.stringValue ?? "?"), not \(type)."
                )
            }
        } else {
            throw GraphQLError("Give the argument id or slug.")
        }
        return item ?? .null
    }

    private func search(_ arguments: [String: JSON]) throws(GraphQLError) -> JSON {
        try authorize(arguments)
        var request = SearchRequest(limit: 100, offset: 0, countTotal: true)
        if let filter = arguments["filter"], !filter.isNull { request.query = try Self.expression(filter) }
        if let query = arguments["query"] {
            if let text = query["q"]?.stringValue, !text.trimmingSpaces().isEmpty {
                do {
                    request.require(.group(try QueryParser.parse(text)))
                } catch {
                    throw GraphQLError("Invalid query.q: \(error)")
                }
            }
            if let text = query["default"]?.stringValue, !text.trimmingSpaces().isEmpty { request.defaultText = text }
        }
        for key in arguments["sort"]?.arrayValue ?? [] {
            for (field, order) in (key.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                request.orderBy.append(SortKey(field, order.stringValue == "DESC" ? .desc : .asc))
            }
        }
        if let limit = arguments["limit"]?.intValue {
            guard limit >= 0, limit <= source.maximumLimit else {
                throw GraphQLError("limit must be between 0 and \(source.maximumLimit), got \(limit).")
            }
            request.limit = limit
        }
        if let offset = arguments["offset"]?.intValue {
            guard offset >= 0 else { throw GraphQLError("offset must not be negative, got \(offset).") }
            request.offset = offset
        }
        let found = try source.search(request)
        return .object([
            "items": .array(found.items), "totalResults": .int(found.total), "count": .int(found.items.count),
            "offset": .int(request.offset), "limit": .int(request.limit), "hasMore": .bool(found.hasMore),
        ])
    }

    /// A `standardFilter` as a `q` expression: its conditions ANDed.
    static func expression(_ filter: JSON) throws(GraphQLError) -> QueryExpression {
        var operands: [QueryExpression] = []
        for (key, value) in (filter.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch key {
            case "and", "or":
                var parts: [QueryExpression] = []
                for element in value.arrayValue ?? [] { parts.append(.group(try expression(element))) }
                guard !parts.isEmpty else { continue }
                operands.append(.group(key == "and" ? .and(parts) : .or(parts)))
            case "not":
                operands.append(.not(.group(try expression(value))))
            default:
                let name = value["op"]?.stringValue ?? "EQUALS"
                guard let op = GraphQLSchemaBuilder.operators.first(where: { $0.0 == name })?.1 else {
                    throw GraphQLError("Unknown filter operator \(name).")
                }
                operands.append(
                    .condition(QueryCondition(field: key, op: op, value: value["value"]?.stringValue ?? "")))
            }
        }
        guard !operands.isEmpty else { throw GraphQLError("The filter names no condition.") }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// `file` from an asset's Delivery `fields`.
    static func assetFile(_ fields: JSON) -> JSON {
        let metadata = fields["metadata"]
        return .object([
            "url": fields["native"]?["links"]?[0]?["href"] ?? .null,
            "mimeType": fields["mimeType"] ?? .null, "size": fields["size"] ?? .null,
            "metadata": metadata == nil
                ? .null : .object(["width": metadata?["width"] ?? .null, "height": metadata?["height"] ?? .null]),
        ])
    }

    /// An asset's renditions, one entry per name and format.
    static func renditions(_ fields: JSON) -> JSON {
        var flat: [JSON] = []
        for rendition in fields["renditions"]?.arrayValue ?? [] {
            for format in rendition["formats"]?.arrayValue ?? [] {
                flat.append(
                    .object([
                        "name": rendition["name"] ?? .null, "type": rendition["type"] ?? .null,
                        "format": format["format"] ?? .null,
                        "file": .object([
                            "url": format["links"]?[0]?["href"] ?? .null, "mimeType": format["mimeType"] ?? .null,
                            "size": format["size"] ?? .null, "metadata": format["metadata"] ?? .null,
                        ]),
                    ]))
            }
        }
        return .array(flat)
    }
}
