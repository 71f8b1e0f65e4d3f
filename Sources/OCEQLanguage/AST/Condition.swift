import OCEQCore

/// A field as written: one or more names joined by dots (`type`, `author.name`, `fields.topic`).
package struct FieldPath: Sendable, Hashable {
    /// The path as written, dots included.
    package let text: String
    /// Where it was written.
    package var span: SourceSpan
    /// What the text is, worked out once from its bytes.
    let category: Category

    enum Category: UInt8, Sendable, Hashable {
        /// Not `name(.name)*` with names `[A-Za-z_][A-Za-z0-9_-]*`.
        case invalid
        /// Starts with a standard field: sent as written.
        case standard
        /// Starts with `fields.`: sent as written.
        case prefixed
        /// Anything else: sent as `fields.<text>`.
        case user
    }

    /// A path from dotted text (`author.name`).
    package init(_ text: String, span: SourceSpan = .at(0)) {
        self.text = text
        self.span = span
        var copy = text
        self.category = copy.withUTF8 { FieldPath.classify($0) }
    }

    /// A path of `segments` at `span`.
    package init(_ segments: [String], span: SourceSpan = .at(0)) {
        self.init(segments.joined(separator: "."), span: span)
    }

    /// The names, in order.
    package var segments: [String] {
        text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The delivery API's standard fields (delivery-api.md §5.3, core's `StandardField`), which are
    /// queried by their own names; every other name is a user field, `fields.<name>`. `translatable`
    /// is not among them here: the language has always sent it as `fields.translatable`.
    package static let standardFields: Set<String> = Set(
        StandardField.allCases.filter { $0 != .translatable }.map(\.rawValue))

    /// True when the path names a standard field (or starts with one) and is sent as written.
    package var isStandard: Bool { category == .standard }

    /// True when the path is written with the `fields.` prefix already.
    package var isPrefixed: Bool { category == .prefixed }

    /// True when the path reaches into a referenced item (`author.name`, `fields.author.name`) rather
    /// than naming one field of the item itself: `fields`, `expand` and `order` take no such path.
    package var isPath: Bool { segments.count > (isPrefixed ? 2 : 1) }

    /// True when every name is `[A-Za-z_][A-Za-z0-9_-]*` (what the parser accepts).
    package var isValid: Bool { category != .invalid }

    /// The name the API knows: standard fields and paths already starting with `fields.` as written,
    /// anything else prefixed with `fields.` (`author.name` → `fields.author.name`).
    package var apiName: String {
        category == .user ? "fields." + text : text
    }

    static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> Category {
        var atStart = true
        var firstEnd = -1
        for (offset, byte) in bytes.enumerated() {
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
            let isDigit = byte >= 0x30 && byte <= 0x39
            if byte == UInt8(ascii: ".") {
                if atStart { return .invalid }
                if firstEnd < 0 { firstEnd = offset }
                atStart = true
            } else if atStart ? !isLetter : !(isLetter || isDigit || byte == UInt8(ascii: "-")) {
                return .invalid
            } else {
                atStart = false
            }
        }
        if atStart { return .invalid }
        let first = UnsafeBufferPointer(rebasing: bytes[0..<(firstEnd < 0 ? bytes.count : firstEnd)])
        if firstEnd >= 0 && matches(first, "fields") { return .prefixed }
        for name in standardNames where matches(first, name) { return .standard }
        return .user
    }

    /// `standardFields` as static strings, matched without allocating.
    static let standardNames: [StaticString] = [
        "id", "type", "typeCategory", "name", "description", "slug", "language", "createdDate", "updatedDate",
        "taxonomies", "fileExtension", "mimeType", "fileGroup",
    ]

    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let start = name.utf8Start
        for index in 0..<bytes.count where bytes[index] != start[index] { return false }
        return true
    }
}

/// A condition of a select statement.
package struct Condition: Sendable, Hashable {
    /// The shapes a condition takes.
    package indirect enum Kind: Sendable, Hashable {
        /// `field op value`
        case comparison(FieldPath, QueryOperator, Value)
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
    package var kind: Kind
    /// From its first to its last byte.
    package var span: SourceSpan

    /// A condition of `kind` at `span`.
    package init(_ kind: Kind, span: SourceSpan = .at(0)) {
        self.kind = kind
        self.span = span
    }
}
