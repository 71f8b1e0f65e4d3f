/// Parses `orderBy`: keys separated by `;`, each `field` or `field:direction`.
///
/// Directions are `asc`, `desc` and `des` in any case; a key without one is ascending. Blanks
/// around parts and empty keys (`name:asc;`) are ignored. Field names are not checked here. The
/// keys are the ones a client's request writes into `orderBy`.
public enum OrderByParser {
    /// The keys of `text`, in order, or the first error with its position.
    public static func parse(_ text: String) throws(QuerySyntaxError) -> [SortKey] {
        let scalars = Array(text.unicodeScalars)
        var keys: [SortKey] = []
        var start = 0
        while start <= scalars.count {
            var end = start
            while end < scalars.count, scalars[end] != ";" { end += 1 }
            if let key = try parseKey(scalars, start..<end) { keys.append(key) }
            start = end + 1
        }
        return keys
    }

    private static func trimmed(_ scalars: [Unicode.Scalar], _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        return lower..<upper
    }

    private static func parseKey(
        _ scalars: [Unicode.Scalar], _ range: Range<Int>
    ) throws(QuerySyntaxError)
        -> SortKey?
    {
        let key = trimmed(scalars, range)
        if key.isEmpty { return nil }
        let colon = key.firstIndex { scalars[$0] == ":" } ?? key.upperBound
        let field = trimmed(scalars, key.lowerBound..<colon)
        guard !field.isEmpty else {
            throw QuerySyntaxError(offset: key.lowerBound, message: "expected a field name before ':'")
        }
        if let blank = field.first(where: { scalars[$0].properties.isWhitespace }) {
            throw QuerySyntaxError(offset: blank, message: "expected ':' or ';' after the field name")
        }
        let name = String(String.UnicodeScalarView(scalars[field]))
        guard colon < key.upperBound else { return SortKey(name) }
        let direction = trimmed(scalars, (colon + 1)..<key.upperBound)
        let word = String(String.UnicodeScalarView(scalars[direction])).lowercased()
        switch word {
        case "asc": return SortKey(name)
        case "desc", "des": return SortKey(name, .desc)
        case "":
            throw QuerySyntaxError(offset: direction.lowerBound, message: "expected asc or desc after ':'")
        default:
            throw QuerySyntaxError(
                offset: direction.lowerBound,
                message: "unknown sort direction '\(String(String.UnicodeScalarView(scalars[direction])))' "
                    + "(expected asc or desc)")
        }
    }
}
