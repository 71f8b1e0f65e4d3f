import OCEQCore

/// A content or digital-asset type, read from `ContentTypes/<Name>.json` or inferred from the
/// items of a type folder that has no type file.
public struct ContentTypeDefinition: Sendable {
    /// The type name (the item's `type`, the folder name).
    public var name: String
    /// `ContentType` or `DigitalAssetType`, never empty (inferred when the export lacks it).
    public var typeCategory: String
    /// The user fields (content types) or the asset fields, in file order.
    public var fields: [FieldDefinition]
    /// The type file's JSON, or a small synthesised object for inferred types.
    public var raw: JSON
    /// True when no type file was found and the fields were inferred from the items.
    public var isInferred: Bool

    public init(
        name: String, typeCategory: String, fields: [FieldDefinition] = [], raw: JSON = .object([:]),
        isInferred: Bool = false
    ) {
        self.name = name
        self.typeCategory = typeCategory
        self.fields = fields
        self.raw = raw
        self.isInferred = isInferred
    }

    /// The field called `name`, or nil.
    public func field(named name: String) -> FieldDefinition? {
        fields.first { $0.name == name }
    }

    /// The two type categories.
    public static let contentType = "ContentType"
    public static let digitalAssetType = "DigitalAssetType"
}

/// One field of a type.
public struct FieldDefinition: Sendable, Hashable {
    /// Single or multi-valued.
    public enum ValueCount: String, Sendable, Hashable {
        case single
        case list
    }

    /// The key in an item's `fields`.
    public var name: String
    /// `text`, `largetext`, `reference`, `datetime`, `number`, `decimal`, `boolean`, `json`, ...
    public var datatype: String
    public var valuecount: ValueCount
    /// For references: the allowed target types (empty means any).
    public var referenceTypes: [String]

    public init(name: String, datatype: String, valuecount: ValueCount = .single, referenceTypes: [String] = []) {
        self.name = name
        self.datatype = datatype
        self.valuecount = valuecount
        self.referenceTypes = referenceTypes
    }

    /// True for `reference` fields (media fields included).
    public var isReference: Bool { datatype == "reference" }
}

extension ContentTypeDefinition {
    /// Reads a type file's JSON; nil when it is not an object with a name.
    static func parse(_ json: JSON, fallbackName: String) -> ContentTypeDefinition? {
        guard case .object(let object) = json else { return nil }
        let name = object["name"]?.stringValue ?? fallbackName
        guard !name.isEmpty else { return nil }
        var fields: [FieldDefinition] = []
        for fieldJSON in object["fields"]?.arrayValue ?? [] {
            guard let fieldName = fieldJSON["name"]?.stringValue else { continue }
            let datatype = fieldJSON["datatype"]?.stringValue ?? "text"
            let valuecount: FieldDefinition.ValueCount =
                fieldJSON["valuecount"]?.stringValue == "list" ? .list : .single
            var references: [String] = []
            if let referenceType = fieldJSON["referenceType"] {
                if let single = referenceType["type"]?.stringValue { references.append(single) }
                for type in referenceType["types"]?.arrayValue ?? [] {
                    if let type = type.stringValue, !references.contains(type) { references.append(type) }
                }
            }
            fields.append(
                FieldDefinition(name: fieldName, datatype: datatype, valuecount: valuecount, referenceTypes: references)
            )
        }
        // Gen B type files have no typeCategory; the loader fills it from the items later.
        let category = object["typeCategory"]?.stringValue ?? ""
        return ContentTypeDefinition(name: name, typeCategory: category, fields: fields, raw: json)
    }

    /// A definition inferred from the items of a type folder without a type file: the union of
    /// their field names, each typed from its first non-null value.
    static func infer(name: String, typeCategory: String, items: [ExportItem]) -> ContentTypeDefinition {
        var seen: [String: FieldDefinition] = [:]
        for item in items {
            for (key, value) in item.fields {
                if let existing = seen[key], existing.datatype != "unknown" { continue }
                seen[key] = inferField(name: key, value: value)
            }
        }
        let fields = seen.values.map { field -> FieldDefinition in
            var field = field
            if field.datatype == "unknown" { field.datatype = "text" }
            return field
        }.sorted { $0.name < $1.name }
        let raw: JSON = .object([
            "name": .string(name),
            "typeCategory": .string(typeCategory),
            "fields": .array(
                fields.map { field in
                    .object([
                        "name": .string(field.name), "datatype": .string(field.datatype),
                        "valuecount": .string(field.valuecount.rawValue),
                    ])
                }),
        ])
        return ContentTypeDefinition(name: name, typeCategory: typeCategory, fields: fields, raw: raw, isInferred: true)
    }

    private static func inferField(name: String, value: JSON) -> FieldDefinition {
        switch value {
        case .array(let elements):
            let element = elements.first { !$0.isNull }.map { inferField(name: name, value: $0) }
            return FieldDefinition(name: name, datatype: element?.datatype ?? "unknown", valuecount: .list)
        case .null: return FieldDefinition(name: name, datatype: "unknown")
        case .bool: return FieldDefinition(name: name, datatype: "boolean")
        case .int: return FieldDefinition(name: name, datatype: "number")
        case .double: return FieldDefinition(name: name, datatype: "decimal")
        case .string: return FieldDefinition(name: name, datatype: "text")
        case .object:
            if ReferenceStub.looksLikeStub(value) { return FieldDefinition(name: name, datatype: "reference") }
            if ExportDateText.looksLikeDate(value) { return FieldDefinition(name: name, datatype: "datetime") }
            return FieldDefinition(name: name, datatype: "json")
        }
    }
}
