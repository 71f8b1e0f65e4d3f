// Content types inferred from the items, since the delivery API serves no type definitions: one
// `ContentTypes/<Name>.json` per type, in the 2023 shape (export-format.md §5). Each field's
// `datatype` comes from its values (`FieldKind`, shared with `fields`): the first kind seen that
// is not null decides, `text` and `largetext` widen to `largetext`, `number` and `decimal` to
// `decimal`, and any other mix becomes `json` (a field that ever holds a reference stays a
// reference). Arrays make `valuecount: list`; reference fields get a `referenceType` naming the
// target types seen. Asset types list OCM's system fields with `isSystemField: true`.

import DeliveryKit
import OCEQCore

/// Accumulates the items of each type and writes their type definitions.
struct ContentTypeInference {
    /// What is known about one field.
    struct FieldFacts {
        var name: String
        var kind: FieldKind?
        var isList = false
        var targetTypes: [String] = []
        var targetCategories: Set<String> = []
        var html = false
    }

    /// What is known about one type.
    struct TypeFacts {
        var name: String
        var category: String
        var fields: [FieldFacts] = []
        var extensions: [String] = []
    }

    private(set) var types: [String: TypeFacts] = [:]

    /// Adds one exported item (export form, as written).
    mutating func add(_ item: [String: JSON]) {
        guard let type = item["type"]?.stringValue else { return }
        let category = item["typeCategory"]?.stringValue ?? "ContentType"
        var facts = types[type] ?? TypeFacts(name: type, category: category)
        let isAsset = category == ExportItemConverter.typeCategoryAsset
        if isAsset, let ext = item["fileExtension"]?.stringValue, !ext.isEmpty, !facts.extensions.contains(ext) {
            facts.extensions.append(ext)
        }
        for (key, value) in (item["fields"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            if isAsset && ExportItemConverter.assetSystemFields.contains(key) { continue }
            var field: FieldFacts
            let position = facts.fields.firstIndex { $0.name == key }
            if let position { field = facts.fields[position] } else { field = FieldFacts(name: key) }
            Self.observe(value, into: &field)
            if let position { facts.fields[position] = field } else { facts.fields.append(field) }
        }
        types[type] = facts
    }

    static func observe(_ value: JSON, into field: inout FieldFacts) {
        var kind = FieldKind(value)
        if case .list(let element) = kind {
            field.isList = true
            guard let element else { return }
            kind = element
        }
        if kind == .empty { return }
        if kind == .reference {
            let stubs = value.arrayValue ?? [value]
            for stub in stubs {
                if let type = stub["type"]?.stringValue, !field.targetTypes.contains(type) {
                    field.targetTypes.append(type)
                }
                if let category = stub["typeCategory"]?.stringValue { field.targetCategories.insert(category) }
            }
        }
        if kind == .largetext {
            let texts = value.arrayValue ?? [value]
            if texts.contains(where: { FieldKind.looksLikeHTML($0.stringValue ?? "") }) { field.html = true }
        }
        field.kind = merge(field.kind, kind)
    }

    static func merge(_ old: FieldKind?, _ new: FieldKind) -> FieldKind {
        guard let old, old != new else { return new }
        switch (old, new) {
        case (.reference, _), (_, .reference): return .reference
        case (.text, .largetext), (.largetext, .text): return .largetext
        case (.number, .decimal), (.decimal, .number): return .decimal
        default: return .json
        }
    }

    /// The type file of every type, by type name.
    func definitions() -> [String: JSON] {
        var out: [String: JSON] = [:]
        for (name, facts) in types { out[name] = Self.definition(facts) }
        return out
    }

    static func definition(_ facts: TypeFacts) -> JSON {
        let isAsset = facts.category == ExportItemConverter.typeCategoryAsset
        var fields: [JSON] = []
        if isAsset {
            for (name, datatype) in systemFields {
                fields.append(
                    field(
                        FieldFacts(name: name), datatype: datatype, typeName: facts.name, editor: nil, system: true))
            }
        }
        for field in facts.fields {
            let (datatype, editor) = datatypeAndEditor(field)
            fields.append(Self.field(field, datatype: datatype, typeName: facts.name, editor: editor, system: false))
        }
        return .object([
            "id": .string(StableID.hex(facts.name)),
            "name": .string(facts.name),
            "apiName": .string(apiName(facts.name)),
            "displayName": .string(facts.name),
            "description": "",
            "typeCategory": .string(facts.category),
            "fields": .array(fields),
            "properties": .object([:]),
            "allowedFileTypes": .array(isAsset ? facts.extensions.map(JSON.string) : ["ContentItem"]),
            "links": .null,
        ])
    }

    /// OCM's system fields of an asset type, as `Image.json` lists them.
    static let systemFields: [(String, String)] = [
        ("metadata", "json"), ("renditions", "json"), ("mimeType", "text"), ("size", "number"), ("native", "json"),
        ("fileGroup", "text"), ("fileType", "text"), ("advancedVideoInfo", "json"),
    ]

    static func datatypeAndEditor(_ field: FieldFacts) -> (String, String?) {
        switch field.kind {
        case .text?: return ("text", "textbox")
        case .largetext?: return ("largetext", field.html ? "rich-text-editor" : "textarea")
        case .number?: return ("number", "number")
        case .decimal?: return ("decimal", "decimal")
        case .boolean?: return ("boolean", "checkbox")
        case .datetime?: return ("datetime", "datepicker")
        case .reference?:
            let media =
                !field.targetCategories.isEmpty
                && field.targetCategories.allSatisfy { $0 == ExportItemConverter.typeCategoryAsset }
            return ("reference", media ? "mediapicker" : "itempicker")
        case .json?, .list?: return ("json", nil)
        case .empty?, nil: return ("text", "textbox")
        }
    }

    static func field(_ facts: FieldFacts, datatype: String, typeName: String, editor: String?, system: Bool) -> JSON {
        var object: [String: JSON] = [
            "id": .string(StableID.hex(typeName + "\u{0}" + facts.name)),
            "name": .string(facts.name),
            "apiName": .string(apiName(facts.name)),
            "description": "",
            "datatype": .string(datatype),
            "required": false,
            "valuecount": .string(facts.isList ? "list" : "single"),
            "properties": .object([:]),
        ]
        if system { object["isSystemField"] = true }
        if let editor {
            object["settings"] = .object(["caas": .object(["editor": .object(["name": .string(editor)])])])
        }
        if datatype == "reference" {
            let category: JSON =
                facts.targetCategories.count == 1 ? .string(facts.targetCategories.first ?? "") : .null
            object["referenceType"] = .object([
                "type": facts.targetTypes.count == 1 ? .string(facts.targetTypes[0]) : .null,
                "types": .array(facts.targetTypes.map(JSON.string)),
                "typeCategory": category,
            ])
        }
        return .object(object)
    }

    /// `OCEGettingStartedTopic` → `oceGettingStartedTopic`, `Starter-Blog-Post` → `starterBlogPost`,
    /// `published_date` → `publishedDate`.
    static func apiName(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " }).map(String.init)
        guard let first = words.first else { return name }
        var head = ""
        var rest = Substring(first)
        // A leading run of capitals is lower-cased, except its last letter when a lower-case follows.
        while let character = rest.first, character.isUppercase {
            let next = rest.dropFirst().first
            if let next, next.isLowercase, !head.isEmpty { break }
            head += character.lowercased()
            rest = rest.dropFirst()
        }
        return head + rest + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
