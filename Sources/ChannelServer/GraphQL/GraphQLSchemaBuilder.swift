// GraphQLSchemaBuilder: the GraphQL schema of a channel, from the same type descriptions the
// metadata catalog answers with (ContentTypeDefinition, as TypeSchema reads them).
//
// - every item type is an object type (GraphQLNaming) implementing the interface `item`, whose
//   fields are the standard item fields (`id type typeCategory name description slug language
//   translatable createdDate updatedDate mimeType fileGroup`), plus `fields` of type `<name>Fields`;
// - a user field's type follows its datatype: text/largetext String, number Int, decimal Float,
//   boolean Boolean, datetime `date {value timezone}`, json the `JSON` scalar, reference the
//   target's object type when the field allows exactly one type, else the interface `item`
//   (selected through fragments, as OCM's samples do); list fields are lists;
// - digital-asset types replace their system fields `metadata`, `renditions` and `native` with
//   `file { url mimeType size metadata { width height } }` and a flat `renditions` list
//   (`name type format file`);
// - the root `Query` has `getItem`, `getItems` (→ `itemCollection`) and `get<Name>` per type.

import OCEQCore

/// Builds a channel's GraphQL schema.
enum GraphQLSchemaBuilder {
    static let standardItemFields: [(String, GraphQLTypeReference)] = [
        ("id", .nonNull(.named("ID"))), ("type", .nonNull(.named("String"))), ("typeCategory", .named("String")),
        ("name", .named("String")), ("description", .named("String")), ("slug", .named("String")),
        ("language", .named("String")), ("translatable", .named("Boolean")), ("createdDate", .named("date")),
        ("updatedDate", .named("date")), ("mimeType", .named("String")), ("fileGroup", .named("String")),
    ]

    /// Standard fields a filter or sort may name (the REST `q` and `orderBy` names).
    static let filterableFields = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
    ]

    /// The filter operators, in the style of the documented `EQUALS`, and the `q` operator each stands for.
    static let operators: [(String, QueryOperator)] = [
        ("EQUALS", .equal), ("NOT_EQUALS", .notEqual), ("CONTAINS", .contains), ("STARTS_WITH", .startsWith),
        ("GREATER_THAN", .greaterThan), ("GREATER_THAN_OR_EQUALS", .greaterThanOrEqual), ("LESS_THAN", .lessThan),
        ("LESS_THAN_OR_EQUALS", .lessThanOrEqual), ("MATCHES", .matches), ("SIMILAR", .similar),
    ]

    /// Names a user field may not take inside `<type>Fields` (renamed `field<Name>`).
    static let reservedFieldNames: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "translatable", "createdDate",
        "updatedDate", "fields", "taxonomies",
    ]

    /// The asset system fields that `file` and `renditions` replace.
    static let assetSystemFields: Set<String> = ["metadata", "renditions", "native"]

    /// The schema for these type definitions.
    static func build(_ definitions: [String: ContentTypeDefinition]) -> GraphQLSchema {
        var types: [String: GraphQLNamedType] = [:]
        for type in builtInTypes() + GraphQLIntrospection.types { types[type.name] = type }
        var rootFields: Set<String> = ["getItem", "getItems"]

        // Names first, so references can point at any type.
        var names: [String: String] = [:]
        for original in definitions.keys.sorted() {
            let base = GraphQLNaming.convert(original, lowerFirst: true)
            let name = GraphQLNaming.unique(base) { candidate in
                types[candidate] == nil && types[candidate + "Fields"] == nil
                    && !names.values.contains(candidate) && !names.values.contains(candidate + "Fields")
                    && !rootFields.contains("get" + GraphQLNaming.upperFirst(candidate))
            }
            names[original] = name
            rootFields.insert("get" + GraphQLNaming.upperFirst(name))
        }

        var query = GraphQLNamedType(kind: .object, name: GraphQLSchema.queryTypeName)
        let single = [
            GraphQLInputValue(name: "id", type: .named("ID")), GraphQLInputValue(name: "slug", type: .named("String")),
            GraphQLInputValue(name: "channelToken", type: .named("String")),
        ]
        query.fields.append(
            GraphQLFieldDefinition(
                name: "getItem", description: "One item by id or slug.", arguments: single, type: .named("item"),
                resolve: .getItem))
        query.fields.append(
            GraphQLFieldDefinition(
                name: "getItems", description: "A page of items matching `filter` and `query`, sorted by `sort`.",
                arguments: [
                    GraphQLInputValue(name: "channelToken", type: .named("String")),
                    GraphQLInputValue(name: "filter", type: .named("standardFilter")),
                    GraphQLInputValue(name: "query", type: .named("queryFilter")),
                    GraphQLInputValue(name: "sort", type: .list(.nonNull(.named("standardSort")))),
                    GraphQLInputValue(name: "limit", type: .named("Int")),
                    GraphQLInputValue(name: "offset", type: .named("Int")),
                ], type: .named("itemCollection"), resolve: .getItems))

        var possible: [String] = []
        for original in definitions.keys.sorted() {
            guard let definition = definitions[original], let name = names[original] else { continue }
            possible.append(name)
            var object = GraphQLNamedType(
                kind: .object, name: name, description: "The \(definition.typeCategory) \(original).",
                interfaces: ["item"])
            object.fields = standardItemFields.map {
                GraphQLFieldDefinition(name: $0.0, type: $0.1, resolve: .key($0.0))
            }
            let fieldsType = userFieldsType(
                name: name + "Fields", definition: definition, typeNames: names)
            if let fieldsType {
                object.fields.append(
                    GraphQLFieldDefinition(name: "fields", type: .named(fieldsType.name), resolve: .key("fields")))
                types[fieldsType.name] = fieldsType
            } else {
                object.fields.append(
                    GraphQLFieldDefinition(name: "fields", type: .named("JSON"), resolve: .key("fields")))
            }
            types[name] = object
            query.fields.append(
                GraphQLFieldDefinition(
                    name: "get" + GraphQLNaming.upperFirst(name), description: "One \(original) by id or slug.",
                    arguments: single, type: .named(name), resolve: .getTyped(original)))
        }
        types["item"]?.possibleTypes = possible
        types[query.name] = query
        return GraphQLSchema(types: types, itemTypeNames: names)
    }

    /// `<name>Fields`: the user fields (and an asset's `file` and `renditions`); nil when empty.
    static func userFieldsType(
        name: String, definition: ContentTypeDefinition, typeNames: [String: String]
    ) -> GraphQLNamedType? {
        var type = GraphQLNamedType(kind: .object, name: name, description: "The fields of \(definition.name).")
        var taken: Set<String> = []
        let isAsset = definition.typeCategory == ContentTypeDefinition.digitalAssetType
        if isAsset {
            type.fields.append(
                GraphQLFieldDefinition(
                    name: "file", description: "The native file.", type: .named("assetFile"), resolve: .assetFile))
            type.fields.append(
                GraphQLFieldDefinition(
                    name: "renditions", description: "One entry per rendition name and format.",
                    type: .list(.nonNull(.named("rendition"))), resolve: .assetRenditions))
            taken = ["file", "renditions"]
        }
        for field in definition.fields {
            if isAsset, assetSystemFields.contains(field.name) { continue }
            var candidate = GraphQLNaming.convert(field.name, lowerFirst: false)
            if reservedFieldNames.contains(candidate) || (isAsset && (candidate == "file" || candidate == "renditions"))
            {
                candidate = "field" + GraphQLNaming.upperFirst(candidate)
            }
            let fieldName = GraphQLNaming.unique(candidate) { !taken.contains($0) }
            taken.insert(fieldName)
            var valueType: GraphQLTypeReference
            var resolve = GraphQLResolve.key(field.name)
            switch field.datatype {
            case "text", "largetext": valueType = .named("String")
            case "number": valueType = .named("Int")
            case "decimal": valueType = .named("Float")
            case "boolean": valueType = .named("Boolean")
            case "datetime", "date": valueType = .named("date")
            case "reference":
                resolve = .reference(field.name)
                if field.referenceTypes.count == 1, let target = typeNames[field.referenceTypes[0]] {
                    valueType = .named(target)
                } else {
                    valueType = .named("item")
                }
            default: valueType = .named("JSON")
            }
            if field.valuecount == .list { valueType = .list(valueType) }
            type.fields.append(
                GraphQLFieldDefinition(
                    name: fieldName, description: fieldName == field.name ? nil : "The field \(field.name).",
                    type: valueType, resolve: resolve))
        }
        return type.fields.isEmpty ? nil : type
    }

    /// The scalars, enums, inputs and objects every channel's schema has.
    static func builtInTypes() -> [GraphQLNamedType] {
        let string = GraphQLTypeReference.named("String")
        let int = GraphQLTypeReference.named("Int")
        func object(
            _ name: String, _ description: String, _ fields: [(String, GraphQLTypeReference)]
        )
            -> GraphQLNamedType
        {
            GraphQLNamedType(
                kind: .object, name: name, description: description,
                fields: fields.map { GraphQLFieldDefinition(name: $0.0, type: $0.1, resolve: .key($0.0)) })
        }
        var item = GraphQLNamedType(kind: .interface, name: "item", description: "Any item of the channel.")
        item.fields = standardItemFields.map { GraphQLFieldDefinition(name: $0.0, type: $0.1, resolve: .key($0.0)) }
        var standardFilter = GraphQLNamedType(
            kind: .inputObject, name: "standardFilter",
            description: "Conditions on standard fields; all must hold, with `and`, `or` and `not` to combine.")
        standardFilter.inputFields =
            filterableFields.map { GraphQLInputValue(name: $0, type: .named("filterCondition")) } + [
                GraphQLInputValue(name: "and", type: .list(.nonNull(.named("standardFilter")))),
                GraphQLInputValue(name: "or", type: .list(.nonNull(.named("standardFilter")))),
                GraphQLInputValue(name: "not", type: .named("standardFilter")),
            ]
        var standardSort = GraphQLNamedType(
            kind: .inputObject, name: "standardSort", description: "One sort key: a standard field and its order.")
        standardSort.inputFields = filterableFields.map { GraphQLInputValue(name: $0, type: .named("sortOrder")) }
        return [
            GraphQLNamedType(kind: .scalar, name: "String"), GraphQLNamedType(kind: .scalar, name: "Int"),
            GraphQLNamedType(kind: .scalar, name: "Float"), GraphQLNamedType(kind: .scalar, name: "Boolean"),
            GraphQLNamedType(kind: .scalar, name: "ID"),
            GraphQLNamedType(kind: .scalar, name: "JSON", description: "Any JSON value."),
            GraphQLNamedType(
                kind: .enumeration, name: "filterOperator", description: "How a filter condition compares.",
                enumValues: operators.map(\.0)),
            GraphQLNamedType(kind: .enumeration, name: "sortOrder", enumValues: ["ASC", "DESC"]),
            GraphQLNamedType(
                kind: .inputObject, name: "filterCondition",
                inputFields: [
                    GraphQLInputValue(name: "op", type: .named("filterOperator"), defaultValue: .enumValue("EQUALS")),
                    GraphQLInputValue(name: "value", type: .nonNull(string)),
                ]),
            standardFilter,
            GraphQLNamedType(
                kind: .inputObject, name: "queryFilter",
                description:
                    "`default`: words searched in names, descriptions and text fields; `q`: a REST `q` expression.",
                inputFields: [
                    GraphQLInputValue(name: "default", type: string), GraphQLInputValue(name: "q", type: string),
                ]),
            standardSort,
            object("date", "A date and its time zone.", [("value", string), ("timezone", string)]),
            object("assetMetadata", "Pixel size.", [("width", int), ("height", int)]),
            object(
                "assetFile", "A file of a digital asset.",
                [("url", string), ("mimeType", string), ("size", int), ("metadata", .named("assetMetadata"))]),
            object(
                "rendition", "One rendition of an asset in one format.",
                [("name", string), ("type", string), ("format", string), ("file", .named("assetFile"))]),
            object(
                "itemCollection", "A page of items.",
                [
                    ("items", .nonNull(.list(.nonNull(.named("item"))))), ("totalResults", int), ("count", int),
                    ("offset", int), ("limit", int), ("hasMore", .named("Boolean")),
                ]),
            item,
        ]
    }
}
