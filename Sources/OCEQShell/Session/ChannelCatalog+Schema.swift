// The channel's schema, for the compiler's checks, completion, `types` and `fields`: read from the
// server's metadata catalog when it answers (`GET /metadata-catalog/items`, one request: every type under
// `$defs/<type>` with `x-ocm-fields` and `x-ocm-typeCategory`, the names in `x-ocm-types`), else from the
// channel itself: every type from one pass over the listing (as `types` counts them), each type's fields
// from a few items of it (`fields=all`), data types inferred from their values (DeliveryKit's `FieldKind`).
// Names are kept as served; `displayable` cleans them of terminal controls for the compiler, so a
// diagnostic or a candidate list can show them.

import DeliveryKit
import DeliveryTransport
import OCEQCore
import OCEQLanguage

extension ChannelCatalog {
    /// The cache key of the schema (`CompletionCache`).
    package static let schemaKey = "schema"

    /// The cache key that marks the schema as unreadable (so it is asked and warned about once).
    package static let schemaFailedKey = "schema-failed"

    /// The cache key of the names of the items of `type`, shared by completion and the compiler.
    package static func itemsKey(_ type: String) -> String { "items\u{0}" + type }

    /// How many items of each type the sample reads.
    package static let itemsSampledPerType = 3
    /// At most this many types get their fields sampled; the fields of the others are not known.
    package static let typesSampled = 60

    /// The channel's schema: from the metadata catalog, else from a sample. A catalog that is missing
    /// (404, 400, 501) or unreadable in shape falls back to the sample; any other failure is thrown.
    nonisolated(nonsending) package static func schema(
        _ client: DeliveryClient
    ) async throws(DeliveryError) -> ChannelSchema {
        do {
            // Read without the members called `properties` (each type's JSON Schema of its items, two thirds of
            // the catalog's bytes), which no reader here looks at: callgrind, one-shot against `oceq serve` of the
            // sample, 1.2 M instructions fewer to parse and free the catalog (README, "Start-up").
            let json = try await client.skipping(members: ["properties"]).fetch(DeliveryAPI.readItemsMetadataCatalog())
            if let schema = schema(metadataCatalog: json) { return schema }
        } catch .http(let error) where [400, 404, 405, 501].contains(error.status) {
            // No catalog on this server: read the channel instead.
        } catch .malformedJSON, .unexpectedShape {
            // Not the JSON Schema oceq reads: read the channel instead.
        }
        return try await sampledSchema(client)
    }

    /// The schema a metadata catalog of items describes; nil when it is not in the shape `oceq serve`
    /// answers (README, "oceq serve"): no `x-ocm-types`, or a type without `x-ocm-fields`.
    package static func schema(metadataCatalog json: JSON) -> ChannelSchema? {
        guard let names = json["x-ocm-types"]?.arrayValue, let definitions = json["$defs"]?.objectValue else {
            return nil
        }
        var types: [SchemaType] = []
        for name in names.compactMap(\.stringValue) {
            guard let definition = definitions[name], let list = definition["x-ocm-fields"]?.arrayValue else {
                return nil
            }
            let fields = list.compactMap { entry -> SchemaField? in
                guard let fieldName = entry["name"]?.stringValue else { return nil }
                let dataType = FieldDataType(ocmName: entry["datatype"]?.stringValue ?? "") ?? .json
                let isList = entry["valuecount"]?.stringValue == "list"
                return SchemaField(
                    name: fieldName, dataType: dataType, isList: isList,
                    referenceTypes: (entry["referenceTypes"]?.arrayValue ?? []).compactMap(\.stringValue),
                    isSortable: (entry["sortable"]?.boolValue ?? true) && isSortable(dataType, isList: isList),
                    isRequired: entry["required"]?.boolValue ?? false)
            }
            let category = definition["x-ocm-typeCategory"]?.stringValue ?? ""
            types.append(SchemaType(name: name, isDigitalAsset: category == "DigitalAssetType", fields: fields))
        }
        return ChannelSchema(types: types, source: .metadataCatalog)
    }

    /// The schema read from the channel: its types, and the fields of a few items of each.
    nonisolated(nonsending) package static func sampledSchema(
        _ client: DeliveryClient
    ) async throws(DeliveryError) -> ChannelSchema {
        let kinds = try await typeKinds(client)
        var types: [SchemaType] = []
        for (index, name) in kinds.keys.sorted().enumerated() {
            guard index < typesSampled else {
                types.append(SchemaType(name: name, isDigitalAsset: kinds[name] ?? false, fieldsKnown: false))
                continue
            }
            let request = DeliveryAPI.listAssets().query(try queryNode(type: name)).limit(itemsSampledPerType)
                .fields(.all)
            let items = try await client.fetch(request).items
            types.append(
                SchemaType(
                    name: name, isDigitalAsset: kinds[name] ?? false,
                    fields: sampledFields(items.map(\.customFields))))
        }
        return ChannelSchema(types: types, source: .sample)
    }

    /// `type eq "NAME"`.
    private static func queryNode(type: String) throws(DeliveryError) -> QueryNode {
        do {
            return try QueryNode.equal(field: "type", value: type)
        } catch {
            throw .invalidRequest("type name \(type) cannot be queried")
        }
    }

    /// Whether the API sorts on a field: within one type, single number, decimal and date fields
    /// (delivery-api.md §4, `orderBy`; a server's catalog may say more, `oceq serve` sorts text too, but
    /// OCM documents only these).
    static func isSortable(_ dataType: FieldDataType, isList: Bool) -> Bool {
        !isList && [.number, .decimal, .datetime].contains(dataType)
    }

    /// The fields seen in `samples`, each typed by its first non-empty value. Long text is taken as text
    /// (a sample cannot tell text from large text), an empty one as json (anything goes).
    static func sampledFields(_ samples: [[String: JSON]]) -> [SchemaField] {
        var kinds: [String: FieldKind] = [:]
        var values: [String: JSON] = [:]
        for sample in samples {
            for (name, value) in sample {
                let kind = FieldKind(value)
                if let known = kinds[name], known != .empty, known != .list(nil) { continue }
                kinds[name] = kind
                values[name] = value
            }
        }
        return kinds.keys.sorted().map { name in
            let kind = kinds[name] ?? .empty
            let (dataType, isList) = dataType(of: kind)
            let referenced = dataType == .reference ? referencedType(values[name] ?? .null).map { [$0] } : nil
            return SchemaField(
                name: name, dataType: dataType, isList: isList, referenceTypes: referenced ?? [],
                isSortable: isSortable(dataType, isList: isList))
        }
    }

    /// The data type and list flag a sampled value's kind stands for.
    static func dataType(of kind: FieldKind) -> (FieldDataType, Bool) {
        switch kind {
        case .text, .largetext: return (.text, false)
        case .number: return (.number, false)
        case .decimal: return (.decimal, false)
        case .boolean: return (.boolean, false)
        case .datetime: return (.datetime, false)
        case .reference: return (.reference, false)
        case .json, .empty: return (.json, false)
        case .list(let element?): return (dataType(of: element).0, true)
        case .list(nil): return (.json, true)
        }
    }

    /// A value of the shape `field` holds (what completion reads: a reference's type, a list, a date).
    package static func shape(of field: SchemaField) -> JSON {
        let single: JSON =
            switch field.dataType {
            case .text, .largetext: .string("")
            case .number: .int(0)
            case .decimal: .double(0)
            case .boolean: .bool(false)
            case .datetime: ["value": "", "timezone": "UTC"]
            case .reference: ["id": "", "type": .string(field.referenceTypes.first ?? "")]
            case .json: .null
            }
        return field.isList ? .array([single]) : single
    }

    /// The names and ids of the items of `type` that `cache` holds, names cleaned of terminal controls (for
    /// the compiler's candidate lists); nil when they were not read.
    package static func displayableItems(ofType type: String, in cache: CompletionCache) -> [ItemName]? {
        cache.cached(itemsKey(type), as: [ItemName].self)?.map {
            ItemName(name: TerminalText.clean($0.name), id: $0.id)
        }
    }

    /// `schema` with every name cleaned of terminal controls, as the compiler gets it: what it names in a
    /// diagnostic or a list of candidates is then fit to be shown (the schema itself keeps the names as
    /// served, for the queries `types` sends).
    package static func displayable(_ schema: ChannelSchema) -> ChannelSchema {
        let clean = TerminalText.clean
        let types = schema.types.values.map { type in
            var copy = type
            copy.name = clean(type.name)
            copy.fields = type.fields.map { field in
                var cleaned = field
                cleaned.name = clean(field.name)
                cleaned.referenceTypes = field.referenceTypes.map(clean)
                return cleaned
            }
            return copy
        }
        return ChannelSchema(types: types, source: schema.source)
    }
}
