import OCEQCore

/// One searchable value of a user field, as stored in `vals`.
struct IndexedValue {
    var kind: ValueKind
    /// Folded text (text, boolean, reference id, a datetime's calendar date), truncated.
    var fold: String?
    /// Number, or a datetime's epoch milliseconds.
    var num: Double?
    /// For references: the referenced id as written.
    var referenceID: String?
    /// The whole folded text when `fold` was truncated.
    var full: String?
    /// The original text, for the full-text index.
    var text: String?

    /// Reads one exported (management-form) field value. Arrays yield one value per element;
    /// null, nested arrays and JSON objects that are neither dates nor references yield none.
    static func values(of json: JSON) -> [(seq: Int, value: IndexedValue)] {
        if case .array(let elements) = json {
            return elements.enumerated().compactMap { i, element in scalar(element).map { (i, $0) } }
        }
        return scalar(json).map { [(-1, $0)] } ?? []
    }

    /// The kinds of value `json` yields, as a `ValueKind.bit` mask, without building the values.
    static func kinds(of json: JSON) -> Int64 {
        switch json {
        case .array(let elements): elements.reduce(ValueKind.multivaluedBit) { $0 | scalarKind($1) }
        default: scalarKind(json)
        }
    }

    private static func scalarKind(_ json: JSON) -> Int64 {
        switch json {
        case .null, .array: 0
        case .string: ValueKind.text.bit
        case .int, .double: ValueKind.number.bit
        case .bool: ValueKind.boolean.bit
        case .object(let members):
            if let value = members["value"]?.stringValue, CivilDateTime.queryValue(value) != nil {
                ValueKind.datetime.bit
            } else if members["id"]?.stringValue != nil {
                ValueKind.reference.bit
            } else {
                0
            }
        }
    }

    static func scalar(_ json: JSON) -> IndexedValue? {
        switch json {
        case .null, .array:
            return nil
        case .string(let s):
            return text(s)
        case .int(let i):
            return IndexedValue(kind: .number, num: Double(i))
        case .double(let d):
            return IndexedValue(kind: .number, num: d)
        case .bool(let b):
            return IndexedValue(kind: .boolean, fold: b ? "true" : "false")
        case .object(let members):
            if let value = members["value"]?.stringValue, let date = CivilDateTime.queryValue(value) {
                return IndexedValue(kind: .datetime, fold: date.localDate, num: Double(date.epochMilliseconds))
            }
            if let id = members["id"]?.stringValue {
                return IndexedValue(kind: .reference, fold: id.lowercased(), referenceID: id)
            }
            return nil
        }
    }

    static func text(_ s: String) -> IndexedValue {
        let (fold, full) = folded(s)
        return IndexedValue(kind: .text, fold: fold, full: full, text: s)
    }

    /// Lower-cased text cut to `IndexSchema.foldLimit` scalars, and the whole of it when cut.
    /// Only the first scalars are counted (a long text's count was 4 % of the side writer's
    /// instructions), none when the bytes are few enough.
    static func folded(_ s: String) -> (fold: String, full: String?) {
        let lower = s.lowercased()
        let scalars = lower.unicodeScalars
        guard lower.utf8.count > IndexSchema.foldLimit,
            let end = scalars.index(scalars.startIndex, offsetBy: IndexSchema.foldLimit, limitedBy: scalars.endIndex),
            end != scalars.endIndex
        else { return (lower, nil) }
        return (String(scalars[..<end]), lower)
    }
}

extension ExportItem {
    /// The file extension for `fileExtension` queries: the exported one, else the name's, lower
    /// case; empty for content items.
    var indexedFileExtension: String {
        guard isDigitalAsset else { return "" }
        if let e = raw["fileExtension"]?.stringValue { return e.lowercased() }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// `mimeType`: the asset's, or `contentItem` for content items. `fields`: the item's `fields`,
    /// when the caller has them parsed already.
    func indexedMimeType(fields: [String: JSON]? = nil) -> String {
        guard isDigitalAsset else { return "contentItem" }
        return (fields ?? self.fields)["mimeType"]?.stringValue ?? raw["mimeType"]?.stringValue ?? ""
    }

    /// `fileGroup`: the asset's (`Images`, `Files`, ...), or `contentItem`. `fields` as above.
    func indexedFileGroup(fields: [String: JSON]? = nil) -> String {
        (fields ?? self.fields)["fileGroup"]?.stringValue ?? raw["fileGroup"]?.stringValue
            ?? (isDigitalAsset ? "" : "contentItem")
    }

    /// The value of a standard text field. `fields`: the item's `fields`, when the caller has them
    /// parsed already (each read of `fields` parses them again).
    func standardText(_ field: StandardField, fields: [String: JSON]? = nil) -> String {
        switch field {
        case .id: id
        case .type: type
        case .typeCategory: typeCategory
        case .name: name
        case .description: description
        case .slug: slug ?? ""
        case .language: language ?? ""
        case .fileExtension: indexedFileExtension
        case .mimeType: indexedMimeType(fields: fields)
        case .fileGroup: indexedFileGroup(fields: fields)
        default: ""
        }
    }

    /// The values indexed for `q` on `taxonomies` (`TaxonomyAssignment.indexValues`): taxonomy and
    /// category node ids, and the directly assigned categories' ids prefixed.
    var taxonomyIDs: [String] {
        TaxonomyAssignment.indexValues(TaxonomyAssignment.read(raw["taxonomies"]))
    }
}

/// The instant of an exported date (`{value, timezone}` object or a bare string).
func indexedDate(_ json: JSON?) -> CivilDateTime? {
    guard let json else { return nil }
    if let value = json["value"]?.stringValue ?? json.stringValue { return CivilDateTime.queryValue(value) }
    return nil
}
