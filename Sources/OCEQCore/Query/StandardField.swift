/// The standard (top-level) item fields that `q` and `orderBy` may name, with their query types.
///
/// `name`, `description`, `type`, `typeCategory`, `slug`, `language` are text and `id` a
/// reference compared as text (delivery-api.md §5.3); `createdDate`/`updatedDate` are datetimes;
/// `taxonomies` is a multivalued reference. `fileExtension`, `mimeType`, `fileGroup` (used by
/// Oracle's samples on digital assets) and `translatable` (a boolean) are accepted as well.
package enum StandardField: String, Sendable, CaseIterable {
    case id, type, typeCategory, name, description, slug, language
    case fileExtension, mimeType, fileGroup
    case createdDate, updatedDate
    case translatable
    case taxonomies

    /// How values of the field are compared.
    package enum Kind: Sendable {
        case text, datetime, boolean, multiReference
    }

    /// The query type of the field.
    package var kind: Kind {
        switch self {
        case .createdDate, .updatedDate: .datetime
        case .translatable: .boolean
        case .taxonomies: .multiReference
        default: .text
        }
    }

    /// The standard fields of text kind, in index column order.
    package static let textFields: [StandardField] = allCases.filter { $0.kind == .text }
}
