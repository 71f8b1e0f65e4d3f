import FoundationEssentials

/// A value compared in a query condition; every kind renders inside double quotes.
public enum QueryValue: Sendable, Hashable {
    /// Rendered as it is (a double quote is refused).
    case string(String)
    /// Rendered in decimal.
    case int(Int)
    /// Rendered as a plain decimal (`1.234`, `1.0`, never exponent notation).
    case double(Double)
    /// Rendered with a calendar-year pattern.
    case date(Date, QueryDateFormat)

    /// The text placed between the quotes.
    package func text(field: String) throws(QueryError) -> String {
        switch self {
        case .string(let s):
            if s.contains("\"") { throw .quoteInValue(field: field, value: s) }
            return s
        case .int(let i): return String(i)
        case .double(let d):
            guard let text = QueryValue.plainDecimal(d) else { throw .nonFiniteNumber(field: field) }
            return text
        case .date(let date, let format): return format.string(from: date)
        }
    }

    /// `d` as Swift prints it (`1.234`, `1.0`), with exponent notation expanded to plain digits.
    static func plainDecimal(_ d: Double) -> String? {
        guard d.isFinite else { return nil }
        let text = "\(d)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        let mantissa = text[..<e]
        guard let exponent = Int(text[text.index(after: e)...]) else { return nil }
        let negative = mantissa.hasPrefix("-")
        let unsigned = negative ? mantissa.dropFirst() : mantissa
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let integral = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = integral + fraction
        var point = integral.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point >= digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var whole = String(digits.prefix(point))
        var rest = String(digits.dropFirst(point))
        while rest.hasSuffix("0") { rest.removeLast() }
        while whole.count > 1 && whole.hasPrefix("0") { whole.removeFirst() }
        if rest.isEmpty { rest = "0" }
        return (negative ? "-" : "") + whole + "." + rest
    }
}
