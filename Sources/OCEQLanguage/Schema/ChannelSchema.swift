// What the compiler knows of a channel: its types and each type's fields, with their data types, whether
// the API sorts on them and what a reference field points at. The shell builds it (from the server's
// metadata catalog, else from a sample of items) and hands it over through `CompileEnvironment`; the
// language never asks a server itself. Names are as the shell gives them (it cleans them of terminal
// controls first), so they can appear in a diagnostic as they are.

import OCEQCore

/// The data type of a field, as OCM's type definitions name it.
package enum FieldDataType: String, Sendable, Hashable, CaseIterable {
    /// One line of text.
    case text
    /// Rich or long text.
    case largetext
    /// An integer.
    case number
    /// A number with a fraction.
    case decimal
    /// `true` or `false`.
    case boolean
    /// A date and time (`{value, timezone}` in JSON).
    case datetime
    /// Another item (`{id, type, name}` in JSON).
    case reference
    /// Any JSON.
    case json

    /// The data type OCM's `datatype` word names (`date` is read as `datetime`); nil for a word it does not.
    package init?(ocmName: String) {
        if ocmName == "date" {
            self = .datetime
        } else {
            self.init(rawValue: ocmName)
        }
    }

    /// The operators a condition on a field of this type may use (delivery-api.md §5.2): text takes the
    /// text operators (large text no `eq` or `sw`), numbers and dates compare, a boolean or a reference is
    /// equal or not, JSON anything. A list (a multivalued field) takes what the API documents for one:
    /// `co` (any of its values), text lists also `mt` and `sm`; `eq` and the ordered comparisons do not
    /// take a list. A list of references also takes `=` and `!=`, sent as membership (`co`, `NOT co`:
    /// an id is one word of letters and digits, so `co` finds exactly it among the values; a number
    /// such as `-4.5` is split at its signs, so a list of numbers takes `~` alone).
    package func operators(list: Bool) -> Set<QueryOperator> {
        if list {
            switch self {
            case .reference: return [.equal, .notEqual, .contains]
            case .text, .largetext: return [.contains, .matches, .similar]
            case .number, .decimal, .datetime, .boolean: return [.contains]
            case .json: return Set(QueryOperator.allCases)
            }
        }
        switch self {
        case .text: return [.equal, .notEqual, .contains, .startsWith, .matches, .similar]
        case .largetext: return [.notEqual, .contains, .matches, .similar]
        case .number, .decimal, .datetime:
            return [.equal, .notEqual, .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual]
        case .boolean, .reference: return [.equal, .notEqual]
        case .json: return Set(QueryOperator.allCases)
        }
    }

    /// How the type reads in a message (`large text`, `a list of references`).
    package func described(list: Bool) -> String {
        let word: String =
            switch self {
            case .text: "text"
            case .largetext: "large text"
            case .number: "number"
            case .decimal: "decimal"
            case .boolean: "boolean"
            case .datetime: "date"
            case .reference: "reference"
            case .json: "json"
            }
        return list ? "list of \(word)s" : word
    }
}

/// One field of a type.
package struct SchemaField: Sendable, Hashable {
    /// The field's name (what follows `fields.`).
    package var name: String
    /// Its data type.
    package var dataType: FieldDataType
    /// True when it holds a list of values.
    package var isList: Bool
    /// The types a reference field may point at (empty: any type, or not known).
    package var referenceTypes: [String]
    /// True when the API can sort on it (`orderBy=fields.NAME`).
    package var isSortable: Bool
    /// True when every item of the type has a value.
    package var isRequired: Bool

    /// A field described by these facts.
    package init(
        name: String, dataType: FieldDataType, isList: Bool = false, referenceTypes: [String] = [],
        isSortable: Bool = false, isRequired: Bool = false
    ) {
        self.name = name
        self.dataType = dataType
        self.isList = isList
        self.referenceTypes = referenceTypes
        self.isSortable = isSortable
        self.isRequired = isRequired
    }
}

/// One type of the channel.
package struct SchemaType: Sendable, Hashable {
    /// The type's name (`OCEGettingStartedArticle`, `Image`).
    package var name: String
    /// True for a digital asset type (it has the asset standard fields: fileGroup, mimeType ...).
    package var isDigitalAsset: Bool
    /// Its fields, in the type's order.
    package var fields: [SchemaField]
    /// False when the fields are not known (a sample that did not reach the type): then no field name
    /// is refused for it.
    package var fieldsKnown: Bool

    /// A type with these fields.
    package init(name: String, isDigitalAsset: Bool = false, fields: [SchemaField] = [], fieldsKnown: Bool = true) {
        self.name = name
        self.isDigitalAsset = isDigitalAsset
        self.fields = fields
        self.fieldsKnown = fieldsKnown
    }

    /// The field called `name`, if the type has one.
    package func field(named name: String) -> SchemaField? {
        fields.first { $0.name == name }
    }
}

/// The types of a channel and where the facts came from.
package struct ChannelSchema: Sendable, Hashable {
    /// Where a schema was read.
    package enum Source: String, Sendable, Hashable {
        /// The server's metadata catalog (`/metadata-catalog/items`): every type, every field, exact facts.
        case metadataCatalog = "the metadata catalog"
        /// A sample of items: the types and fields seen there, data types guessed from values.
        case sample = "a sample of items"
    }

    /// The types by name.
    package var types: [String: SchemaType]
    /// Where the facts came from.
    package var source: Source

    /// A schema of `types`.
    package init(types: [SchemaType], source: Source) {
        self.types = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.source = source
    }

    /// Every type name, sorted.
    package var typeNames: [String] { types.keys.sorted() }

    /// The standard fields every item has (delivery-api.md §5.3), as a condition names them.
    package static let itemStandardFields = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
        "translatable", "taxonomies",
    ]
    /// The data type of a standard field written alone (`updatedDate`, `size`), so that its operators and
    /// values are checked as a user field's are; nil for a path, a user field or `taxonomies`.
    package static func standardField(_ field: FieldPath) -> SchemaField? {
        guard field.isStandard, !field.isPrefixed, field.segments.count == 1 else { return nil }
        let name = field.segments[0]
        let dataType: FieldDataType
        switch name {
        case "createdDate", "updatedDate": dataType = .datetime
        case "size": dataType = .number
        case "translatable": dataType = .boolean
        case "taxonomies", "type": return nil
        default:
            guard itemStandardFields.contains(name) || assetStandardFields.contains(name) else { return nil }
            dataType = .text
        }
        return SchemaField(
            name: name, dataType: dataType, isList: false, referenceTypes: [],
            isSortable: sortableStandardFields.contains(name), isRequired: false)
    }

    /// The standard fields only digital assets have.
    package static let assetStandardFields = ["fileGroup", "fileExtension", "mimeType", "size"]
    /// The standard fields the API sorts on.
    package static let sortableStandardFields: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
        "translatable", "fileExtension", "mimeType", "fileGroup",
    ]
}
