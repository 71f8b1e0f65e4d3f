/// A field as written: one or more names joined by dots (`type`, `author.name`, `fields.topic`).
public struct FieldPath: Sendable, Hashable {
    /// The path as written, dots included.
    public var text: String
    /// Where it was written.
    public var span: SourceSpan

    /// A path from dotted text (`author.name`).
    public init(_ text: String, span: SourceSpan = .at(0)) {
        self.text = text
        self.span = span
    }

    /// A path of `segments` at `span`.
    public init(_ segments: [String], span: SourceSpan = .at(0)) {
        self.init(segments.joined(separator: "."), span: span)
    }

    /// The names, in order.
    public var segments: [String] {
        text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The first name.
    var firstSegment: Substring {
        guard let dot = text.utf8.firstIndex(of: UInt8(ascii: ".")) else { return text[...] }
        return text[..<dot]
    }

    /// The delivery API's standard fields (delivery-api.md §5.3), which are queried by their own
    /// names; every other name is a user field, `fields.<name>`.
    public static let standardFields: Set<String> = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
        "taxonomies", "fileExtension", "mimeType", "fileGroup",
    ]

    /// True when the path names a standard field (or starts with one) and is sent as written.
    public var isStandard: Bool { FieldPath.isStandardName(firstSegment) }

    /// True when the path is written with the `fields.` prefix already.
    public var isPrefixed: Bool { text.utf8.count > 7 && firstSegment == "fields" }

    /// True for the names in `standardFields` (a switch: cheaper than hashing on the hot path).
    static func isStandardName(_ name: Substring) -> Bool {
        switch name {
        case "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
            "taxonomies", "fileExtension", "mimeType", "fileGroup":
            return true
        default: return false
        }
    }

    /// The name the API knows: standard fields and paths already starting with `fields.` as written,
    /// anything else prefixed with `fields.` (`author.name` → `fields.author.name`).
    public var apiName: String {
        isStandard || isPrefixed ? text : "fields." + text
    }

    /// True when every name is `[A-Za-z_][A-Za-z0-9_-]*` (what the parser accepts).
    public var isValid: Bool {
        var atStart = true
        for byte in text.utf8 {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            let isDigit = byte >= 0x30 && byte <= 0x39
            if byte == UInt8(ascii: ".") {
                if atStart { return false }
                atStart = true
            } else if atStart ? !isLetter : !(isLetter || isDigit || byte == UInt8(ascii: "-")) {
                return false
            } else {
                atStart = false
            }
        }
        return !atStart
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
