/// A field as written: one or more names joined by dots (`type`, `author.name`, `fields.topic`).
public struct FieldPath: Sendable, Hashable {
    /// The names, in order.
    public var segments: [String]
    /// Where it was written.
    public var span: SourceSpan

    /// A path of `segments` at `span`.
    public init(_ segments: [String], span: SourceSpan = .at(0)) {
        self.segments = segments
        self.span = span
    }

    /// A path from dotted text (`author.name`).
    public init(_ text: String, span: SourceSpan = .at(0)) {
        self.init(text.split(separator: ".", omittingEmptySubsequences: false).map(String.init), span: span)
    }

    /// The path as written, dots included.
    public var text: String { segments.joined(separator: ".") }

    /// The delivery API's standard fields (delivery-api.md §5.3), which are queried by their own
    /// names; every other name is a user field, `fields.<name>`.
    public static let standardFields: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
        "taxonomies", "fileExtension", "mimeType", "fileGroup",
    ]

    /// True when the path names a standard field (or starts with one) and is sent as written.
    public var isStandard: Bool { FieldPath.standardFields.contains(segments.first ?? "") }

    /// The name the API knows: standard fields and paths already starting with `fields.` as written,
    /// anything else prefixed with `fields.` (`author.name` → `fields.author.name`).
    public var apiName: String {
        if isStandard || (segments.count > 1 && segments[0] == "fields") { return text }
        return "fields." + text
    }
}

/// A condition of a select statement.
public struct Condition: Sendable, Hashable {
    /// The shapes a condition takes.
    public indirect enum Kind: Sendable, Hashable {
        /// `field op value`
        case comparison(FieldPath, ComparisonOperator, Value)
        /// `field in (v1, v2, ...)`: true when the field equals any of the values.
        case membership(FieldPath, [Value])
        /// `a and b and ...` (two or more operands).
        case and([Condition])
        /// `a or b or ...` (two or more operands).
        case or([Condition])
        /// `not a`
        case not(Condition)
        /// `(a)`: kept so that spans and printing follow what was written.
        case parenthesized(Condition)
    }

    /// The shape of the condition.
    public var kind: Kind
    /// From its first to its last byte.
    public var span: SourceSpan

    /// A condition of `kind` at `span`.
    public init(_ kind: Kind, span: SourceSpan = .at(0)) {
        self.kind = kind
        self.span = span
    }
}
