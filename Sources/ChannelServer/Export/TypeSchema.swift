// TypeSchema: the metadata catalog's description of item types, as JSON Schema (draft 2020-12).
//
// OCM's own metadata-catalog bodies were never recorded (ocm-delivery-extras.md §3), so oceq
// answers with JSON Schema, in the form README.md's `oceq serve` section states:
//
// - a type's schema describes one item of the type as Delivery returns it (`GET /items/{id}`):
//   the standard properties, `fields` with one property per field of the type file, `links`;
// - each field's property schema validates its value (`string`, `integer`, `number`, `boolean`,
//   `ocm:date`, `ocm:reference`, any JSON; an `array` of those for list fields) and carries the
//   OCM facts as annotations: `x-ocm-datatype` (the type file's `datatype`: text, largetext,
//   number, decimal, boolean, datetime, reference, json), `x-ocm-valuecount` (single, list),
//   `x-ocm-referenceTypes` (reference fields; empty means any type), `x-ocm-sortable` (the field
//   can be an `orderBy` key);
// - `x-ocm-fields` repeats those facts as a list in the type file's order (`name`, `datatype`,
//   `valuecount`, `referenceTypes`, `sortable`, `required`), which is what a client reads;
// - the collection schema (`/metadata-catalog/items`) is the list envelope whose `items` are any
//   of the types, each type's schema under `$defs/<type name>`, the names in `x-ocm-types`.

import OCEQCore

/// Builds the JSON Schemas of the metadata catalog from the channel's type definitions.
enum TypeSchema {
    /// The JSON Schema dialect every answer declares.
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// `$defs` keys of the shared pieces (a colon cannot occur in an OCM type name).
    static let dateKey = "ocm:date"
    static let referenceKey = "ocm:reference"

    /// The standard `orderBy` keys of `/items`.
    static let sortableStandard: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
        "translatable", "fileExtension", "mimeType", "fileGroup",
    ]

    /// The schema of one item of `type` (nil: a type without definition, described by its name
    /// only), with `$schema`, `$id`, the shared `$defs` and `links`.
    static func document(typeName: String, definition: ContentTypeDefinition?, id: String, links: [JSON]) -> JSON {
        var schema = itemSchema(typeName: typeName, definition: definition)
        schema["$schema"] = .string(dialect)
        schema["$id"] = .string(id)
        schema["$defs"] = .object(sharedDefinitions)
        schema["links"] = .array(links)
        return .object(schema)
    }

    /// The schema of an `/items` page: the envelope, its items any of the channel's types.
    static func collection(types: [String: ContentTypeDefinition], id: String, links: [JSON]) -> JSON {
        let names = types.keys.sorted()
        var definitions = sharedDefinitions
        for name in names { definitions[name] = .object(itemSchema(typeName: name, definition: types[name])) }
        let anyOf: [JSON] = names.map { .object(["$ref": .string("#/$defs/" + pointerSegment($0))]) }
        return .object([
            "$schema": .string(dialect), "$id": .string(id), "title": "items",
            "description": "A page of items of the delivery API (GET /items).", "type": "object",
            "properties": .object([
                "hasMore": ["type": "boolean"], "offset": ["type": "integer"], "count": ["type": "integer"],
                "limit": ["type": "integer"], "totalResults": ["type": "integer"],
                "scrollId": ["type": "string"],
                "items": .object(["type": "array", "items": .object(["anyOf": .array(anyOf)])]),
                "links": linksSchema,
            ]),
            "required": ["hasMore", "offset", "count", "limit", "items"],
            "x-ocm-types": .array(names.map { .string($0) }),
            "$defs": .object(definitions),
            "links": .array(links),
        ])
    }

    /// The members of one type's schema, without `$schema`/`$id`/`$defs`.
    static func itemSchema(typeName: String, definition: ContentTypeDefinition?) -> [String: JSON] {
        let fields = definition?.fields ?? []
        let required = requiredFields(definition)
        var fieldProperties: [String: JSON] = [:]
        var list: [JSON] = []
        for field in fields {
            let sortable = isSortable(field)
            var property = valueSchema(field)
            property["x-ocm-datatype"] = .string(field.datatype)
            property["x-ocm-valuecount"] = .string(field.valuecount.rawValue)
            property["x-ocm-sortable"] = .bool(sortable)
            if field.isReference { property["x-ocm-referenceTypes"] = .array(field.referenceTypes.map { .string($0) }) }
            fieldProperties[field.name] = .object(property)
            var entry: [String: JSON] = [
                "name": .string(field.name), "datatype": .string(field.datatype),
                "valuecount": .string(field.valuecount.rawValue), "sortable": .bool(sortable),
                "required": .bool(required.contains(field.name)),
            ]
            if field.isReference { entry["referenceTypes"] = .array(field.referenceTypes.map { .string($0) }) }
            list.append(.object(entry))
        }
        let category = definition?.typeCategory ?? ""
        let string: JSON = ["type": "string"]
        let date: JSON = ["$ref": .string("#/$defs/" + dateKey)]
        var members: [String: JSON] = [
            "title": .string(typeName), "type": "object",
            "properties": .object([
                "id": string, "type": .object(["const": .string(typeName)]),
                "typeCategory": category.isEmpty ? string : .object(["const": .string(category)]),
                "name": string, "description": string, "slug": string, "language": string,
                "translatable": ["type": "boolean"], "createdDate": date, "updatedDate": date,
                "mimeType": string, "fileGroup": string, "fileExtension": string,
                "fields": .object([
                    "type": "object", "properties": .object(fieldProperties),
                    "required": .array(required.sorted().map { .string($0) }),
                ]),
                "taxonomies": ["type": "object"],
                "links": linksSchema,
            ]),
            "required": ["id", "type", "name", "links"],
            "x-ocm-fields": .array(list),
            "x-ocm-sortable": .array(sortableStandard.sorted().map { .string($0) }),
        ]
        if !category.isEmpty { members["x-ocm-typeCategory"] = .string(category) }
        if let description = definition?.raw["description"]?.stringValue, !description.isEmpty {
            members["description"] = .string(description)
        }
        if definition?.isInferred == true { members["x-ocm-inferred"] = true }
        return members
    }

    /// The fields the type file marks `required: true`.
    static func requiredFields(_ definition: ContentTypeDefinition?) -> Set<String> {
        var names: Set<String> = []
        for field in definition?.raw["fields"]?.arrayValue ?? [] where field["required"] == .bool(true) {
            if let name = field["name"]?.stringValue { names.insert(name) }
        }
        return names
    }

    /// Whether `orderBy=fields.<name>` sorts by the field: single values that are not references
    /// or JSON (SortRanks treats lists, references and objects as missing).
    static func isSortable(_ field: FieldDefinition) -> Bool {
        field.valuecount == .single && !field.isReference && field.datatype != "json"
    }

    /// The JSON Schema of a field's value (an array of them for list fields).
    static func valueSchema(_ field: FieldDefinition) -> [String: JSON] {
        let single: [String: JSON]
        switch field.datatype {
        case "text", "largetext": single = ["type": "string"]
        case "number": single = ["type": "integer"]
        case "decimal": single = ["type": "number"]
        case "boolean": single = ["type": "boolean"]
        case "datetime", "date": single = ["$ref": .string("#/$defs/" + dateKey)]
        case "reference": single = ["$ref": .string("#/$defs/" + referenceKey)]
        default: single = [:]  // json and anything unknown: any value
        }
        let value: [String: JSON] =
            field.valuecount == .list ? ["type": "array", "items": .object(single)] : single
        // An empty value is written as null.
        return ["anyOf": .array([.object(value), ["type": "null"]])]
    }

    /// `ocm:date` and `ocm:reference`.
    static var sharedDefinitions: [String: JSON] {
        [
            dateKey: [
                "type": "object", "properties": ["value": ["type": "string"], "timezone": ["type": "string"]],
                "required": ["value"],
            ],
            referenceKey: [
                "type": "object",
                "properties": [
                    "id": ["type": "string"], "type": ["type": "string"], "typeCategory": ["type": "string"],
                    "name": ["type": "string"], "links": linksSchema,
                ],
                "required": ["id", "type"],
            ],
        ]
    }

    /// An array of `{href, rel, method, mediaType}`.
    static var linksSchema: JSON {
        [
            "type": "array",
            "items": [
                "type": "object",
                "properties": [
                    "href": ["type": "string"], "rel": ["type": "string"], "method": ["type": "string"],
                    "mediaType": ["type": "string"],
                ],
                "required": ["href", "rel"],
            ],
        ]
    }

    /// A `$defs` key as a JSON-pointer segment inside a URI fragment (`~`, `/` escaped, then
    /// percent-encoded).
    static func pointerSegment(_ name: String) -> String {
        URLEncoding.component(name.replacingAllBytes(of: "~", with: "~0").replacingAllBytes(of: "/", with: "~1"))
    }

    /// The schema of one taxonomy, or of a `/taxonomies` page (`list`).
    static func taxonomy(list: Bool, id: String, links: [JSON]) -> JSON {
        let string: JSON = ["type": "string"]
        let date: JSON = ["$ref": .string("#/$defs/" + dateKey)]
        let one: JSON = [
            "title": "taxonomy", "type": "object",
            "properties": [
                "id": string, "name": string, "description": string, "shortName": string,
                "customProperties": ["type": "object", "additionalProperties": ["type": "string"]],
                "createdDate": date, "updatedDate": date, "links": linksSchema,
            ],
            "required": ["id", "name", "links"],
            "x-ocm-sortable": ["name", "createdDate", "updatedDate"],
        ]
        return envelope(one: one, list: list, title: "taxonomies", id: id, links: links)
    }

    /// The schema of one category, or of a `/categories` page (`list`).
    static func category(list: Bool, id: String, links: [JSON]) -> JSON {
        let string: JSON = ["type": "string"]
        let node: JSON = [
            "type": "object", "properties": ["id": string, "name": string, "apiName": string], "required": ["id"],
        ]
        let one: JSON = [
            "title": "category", "type": "object",
            "properties": [
                "id": string, "name": string, "description": string, "apiName": string,
                "position": ["type": "integer"], "parent": node, "ancestors": ["type": "array", "items": node],
                "keywords": string, "synonyms": string,
                "customProperties": ["type": "object", "additionalProperties": ["type": "string"]],
                "children": ["type": "object"], "links": linksSchema,
            ],
            "required": ["id", "name", "links"],
            "x-ocm-sortable": ["name", "position"],
            "x-ocm-queryable": ["id", "name", "parent.id", "ancestors.id", "ancestors.name", "ancestors.apiName"],
        ]
        return envelope(one: one, list: list, title: "categories", id: id, links: links)
    }

    private static func envelope(one: JSON, list: Bool, title: String, id: String, links: [JSON]) -> JSON {
        guard list else {
            var single = one
            single["$schema"] = .string(dialect)
            single["$id"] = .string(id)
            single["$defs"] = .object(sharedDefinitions)
            single["links"] = .array(links)
            return single
        }
        var definitions = sharedDefinitions
        definitions["entry"] = one
        return .object([
            "$schema": .string(dialect), "$id": .string(id), "title": .string(title), "type": "object",
            "properties": .object([
                "hasMore": ["type": "boolean"], "offset": ["type": "integer"], "count": ["type": "integer"],
                "limit": ["type": "integer"], "totalResults": ["type": "integer"],
                "items": ["type": "array", "items": ["$ref": "#/$defs/entry"]], "links": linksSchema,
            ]),
            "required": ["hasMore", "offset", "count", "limit", "items"],
            "$defs": .object(definitions),
            "links": .array(links),
        ])
    }
}
