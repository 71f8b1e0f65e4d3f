import OCEQCore

/// Words with a meaning inside a select statement. They are matched without regard to case and
/// are reserved there: a field or bareword value with one of these names must be written
/// `fields.<name>` or quoted.
package enum Keyword: String, Sendable, Hashable, CaseIterable {
    case and, or, not, `in`
    case order, by, asc, desc
    case limit, offset, fields, expand, search, all

    /// The keyword spelled by `bytes`, in any case: the lower-cased bytes packed into an integer,
    /// most significant first, then one switch (no hashing, no allocation).
    static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ span: SourceSpan) -> Keyword? {
        let length = span.length
        guard length >= 2 && length <= 6 else { return nil }
        var lowered: UInt64 = 0
        for offset in span.start..<span.end {
            let byte = bytes[offset]
            let lower = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            lowered = lowered << 8 | UInt64(lower)
        }
        switch lowered {
        case 0x616E64: return .and
        case 0x6F72: return .or
        case 0x6E6F74: return .not
        case 0x696E: return .`in`
        case 0x6F72646572: return .order
        case 0x6279: return .by
        case 0x617363: return .asc
        case 0x64657363: return .desc
        case 0x6C696D6974: return .limit
        case 0x6F6666736574: return .offset
        case 0x6669656C6473: return .fields
        case 0x657870616E64: return .expand
        case 0x736561726368: return .search
        case 0x616C6C: return .all
        default: return nil
        }
    }

    /// The keyword spelled by `text`, in any case.
    package init?(text: String) {
        let bytes = Array(text.utf8)
        let found = bytes.withUnsafeBufferPointer { Keyword.match($0, SourceSpan(start: 0, end: $0.count)) }
        guard let keyword = found else { return nil }
        self = keyword
    }

    /// Keywords that start a clause of a select statement.
    package var startsClause: Bool {
        switch self {
        case .order, .limit, .offset, .fields, .expand, .search: return true
        default: return false
        }
    }
}

/// The language's spellings of core's `q` operators.
extension QueryOperator {
    /// The operators in the order the language lists them (for suggestions and help).
    package static let languageOrder: [QueryOperator] = [
        .equal, .notEqual, .contains, .startsWith, .greaterThan, .greaterThanOrEqual, .lessThan, .lessThanOrEqual,
        .matches, .similar,
    ]

    /// The symbol that spells it in oceq (`=`, `!=`, `~`, `^=`, `>`, `>=`, `<`, `<=`, `=~`, `~~`).
    package var symbol: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "!="
        case .contains: return "~"
        case .startsWith: return "^="
        case .greaterThan: return ">"
        case .greaterThanOrEqual: return ">="
        case .lessThan: return "<"
        case .lessThanOrEqual: return "<="
        case .matches: return "=~"
        case .similar: return "~~"
        }
    }

    /// The operator spelled by the symbol at `span`, without allocating.
    static func match(symbol bytes: UnsafeBufferPointer<UInt8>, _ span: SourceSpan) -> QueryOperator? {
        switch span.length {
        case 1:
            switch bytes[span.start] {
            case UInt8(ascii: "="): return .equal
            case UInt8(ascii: "~"): return .contains
            case UInt8(ascii: ">"): return .greaterThan
            case UInt8(ascii: "<"): return .lessThan
            default: return nil
            }
        case 2:
            switch (bytes[span.start], bytes[span.start + 1]) {
            case (UInt8(ascii: "!"), UInt8(ascii: "=")): return .notEqual
            case (UInt8(ascii: "^"), UInt8(ascii: "=")): return .startsWith
            case (UInt8(ascii: ">"), UInt8(ascii: "=")): return .greaterThanOrEqual
            case (UInt8(ascii: "<"), UInt8(ascii: "=")): return .lessThanOrEqual
            case (UInt8(ascii: "="), UInt8(ascii: "~")): return .matches
            case (UInt8(ascii: "~"), UInt8(ascii: "~")): return .similar
            default: return nil
            }
        default: return nil
        }
    }

    /// The operator spelled by the API word at `span`, in any case, without allocating.
    static func match(word bytes: UnsafeBufferPointer<UInt8>, _ span: SourceSpan) -> QueryOperator? {
        guard span.length == 2 else { return nil }
        let first = bytes[span.start] | 0x20
        let second = bytes[span.start + 1] | 0x20
        switch (first, second) {
        case (UInt8(ascii: "e"), UInt8(ascii: "q")): return .equal
        case (UInt8(ascii: "n"), UInt8(ascii: "e")): return .notEqual
        case (UInt8(ascii: "c"), UInt8(ascii: "o")): return .contains
        case (UInt8(ascii: "s"), UInt8(ascii: "w")): return .startsWith
        case (UInt8(ascii: "g"), UInt8(ascii: "t")): return .greaterThan
        case (UInt8(ascii: "g"), UInt8(ascii: "e")): return .greaterThanOrEqual
        case (UInt8(ascii: "l"), UInt8(ascii: "t")): return .lessThan
        case (UInt8(ascii: "l"), UInt8(ascii: "e")): return .lessThanOrEqual
        case (UInt8(ascii: "m"), UInt8(ascii: "t")): return .matches
        case (UInt8(ascii: "s"), UInt8(ascii: "m")): return .similar
        default: return nil
        }
    }
}
