/// A field path of `q` or `orderBy`, split into its parts.
///
/// `name` is a standard field; `fields.topic` a user field; `fields.author.name` the standard
/// field `name` of the item the reference field `author` points at, and `fields.author.bio` that
/// item's user field `bio`. At the second level a standard field name wins over a user field of
/// the same name.
package enum QueryFieldPath: Sendable, Equatable {
    case standard(StandardField)
    case user(String)
    /// A reference field and, on the referenced item, a standard or user field.
    case referenced(reference: String, target: Target)

    /// The field read on the referenced item of a two-level path.
    package enum Target: Sendable, Equatable {
        case standard(StandardField)
        case user(String)
    }

    /// Splits a path that `validate` accepted; nil for anything else.
    package init?(_ text: String) {
        if Self.taxonomyPaths.contains(text) {
            self = .standard(.taxonomies)
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1:
            guard let field = StandardField(rawValue: parts[0]) else { return nil }
            self = .standard(field)
        case 2 where parts[0] == "fields" && !parts[1].isEmpty:
            self = .user(parts[1])
        case 3 where parts[0] == "fields" && !parts[1].isEmpty && !parts[2].isEmpty:
            if let field = StandardField(rawValue: parts[2]) {
                self = .referenced(reference: parts[1], target: .standard(field))
            } else {
                self = .referenced(reference: parts[1], target: .user(parts[2]))
            }
        default:
            return nil
        }
    }

    /// Throws a positioned error unless `text` is a standard field, `fields.a` or `fields.a.b`.
    /// The category paths of `taxonomies` the delivery API searches (ocm-delivery-extras.md §2.6):
    /// `taxonomies.categories.nodes.id` (the category or a descendant), `taxonomies.categories.id`
    /// (the category itself), `taxonomies.id`; all read as the standard field `taxonomies`.
    package static let taxonomyPaths: Set<String> = [
        "taxonomies.id", "taxonomies.categories.id", "taxonomies.categories.nodes.id",
    ]

    static func validate(_ text: String, offset: Int) throws(QuerySyntaxError) {
        if taxonomyPaths.contains(text) { return }
        let scalars = Array(text.unicodeScalars)
        var parts: [(text: String, offset: Int)] = []
        var start = 0
        for (i, s) in scalars.enumerated() where s == "." {
            parts.append((String(String.UnicodeScalarView(scalars[start..<i])), offset + start))
            start = i + 1
        }
        parts.append((String(String.UnicodeScalarView(scalars[start...])), offset + start))

        if parts[0].text != "fields" {
            guard parts.count == 1 else {
                throw QuerySyntaxError(
                    offset: offset,
                    message: "unknown field '\(text)': user fields are written fields.<name>")
            }
            guard StandardField(rawValue: text) == nil else { return }
            var message = "unknown field '\(text)'"
            if let near = Suggestions.closest(to: text, among: StandardField.allCases.map(\.rawValue)) {
                message += " (did you mean '\(near)'?)"
            } else {
                message += ": user fields are written fields.<name>"
            }
            throw QuerySyntaxError(offset: offset, message: message)
        }
        guard parts.count > 1 else {
            throw QuerySyntaxError(offset: offset + scalars.count, message: "expected '.<name>' after 'fields'")
        }
        guard parts.count <= 3 else {
            throw QuerySyntaxError(
                offset: parts[3].offset - 1,
                message: "field path too deep: at most fields.<reference>.<field>")
        }
        for part in parts.dropFirst() where part.text.isEmpty {
            throw QuerySyntaxError(offset: part.offset, message: "expected a field name after '.'")
        }
    }
}
