/// Words with a meaning inside a select statement. They are matched without regard to case and
/// are reserved there: a field or bareword value with one of these names must be written
/// `fields.<name>` or quoted.
public enum Keyword: String, Sendable, Hashable, CaseIterable {
    case and, or, not, `in`
    case order, by, asc, desc
    case limit, offset, fields, expand, search, all

    /// The keyword spelled by `bytes`, in any case.
    static func match(_ bytes: UnsafeBufferPointer<UInt8>, _ span: SourceSpan) -> Keyword? {
        let length = span.length
        guard length >= 2 && length <= 6 else { return nil }
        var lowered: UInt64 = 0
        for offset in span.start..<span.end {
            let byte = bytes[offset]
            let lower = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            lowered = lowered << 8 | UInt64(lower)
        }
        return table[lowered]
    }

    /// The keyword spelled by `text`, in any case.
    public init?(text: String) {
        let bytes = Array(text.utf8)
        let found = bytes.withUnsafeBufferPointer { Keyword.match($0, SourceSpan(start: 0, end: $0.count)) }
        guard let keyword = found else { return nil }
        self = keyword
    }

    static let table: [UInt64: Keyword] = {
        var table: [UInt64: Keyword] = [:]
        for keyword in Keyword.allCases {
            table[packed(keyword.rawValue)] = keyword
        }
        return table
    }()

    static func packed(_ text: String) -> UInt64 {
        text.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Keywords that start a clause of a select statement.
    public var startsClause: Bool {
        switch self {
        case .order, .limit, .offset, .fields, .expand, .search: return true
        default: return false
        }
    }
}

/// The comparison operators of the delivery API's `q` syntax.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case eq, ne, co, sw, gt, ge, lt, le, mt, sm

    /// The symbol that spells it in oceq (`=`, `!=`, `~`, `^=`, `>`, `>=`, `<`, `<=`, `=~`, `~~`).
    public var symbol: String {
        switch self {
        case .eq: return "="
        case .ne: return "!="
        case .co: return "~"
        case .sw: return "^="
        case .gt: return ">"
        case .ge: return ">="
        case .lt: return "<"
        case .le: return "<="
        case .mt: return "=~"
        case .sm: return "~~"
        }
    }

    /// The API's word for it (`eq`, `co`, ...); the same as `rawValue`.
    public var word: String { rawValue }

    /// The operator spelled by a symbol.
    public init?(symbol: String) {
        guard let op = ComparisonOperator.allCases.first(where: { $0.symbol == symbol }) else { return nil }
        self = op
    }

    /// The operator spelled by an API word, in any case.
    public init?(word: String) {
        guard let op = ComparisonOperator(rawValue: word.lowercased()) else { return nil }
        self = op
    }
}
