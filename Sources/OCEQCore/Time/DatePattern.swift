// Date patterns for writing dates, without DateFormatter.
//
// Oracle's table of accepted formats (delivery-api.md §5.5) writes `YYYY` and `DD` for the calendar
// year and day of month; in ICU patterns those letters mean week-year and day-of-year, which is how
// Oracle's own SDK tests produce `1970/02/41`. A pattern accepts only `yyyy`, `MM`, `dd`, `HH`,
// `mm`, `ss`, `SSS` and `xxx` (offset `+HH:mm`), so a week-based year cannot be asked for.

/// A calendar-year date pattern (`yyyy-MM-dd'T'HH:mm:ss.SSSxxx`), read once into tokens.
package struct DatePattern: Sendable, Hashable {
    /// One field or literal of a pattern.
    package enum Token: Sendable, Hashable {
        case year, month, day, hour, minute, second, milliseconds, offset
        case literal(String)
    }

    /// The pattern as given.
    package let pattern: String
    /// Its fields and literals, in order.
    package let tokens: [Token]

    /// A pattern built from `yyyy MM dd HH mm ss SSS xxx`, quoted literals like `'T'` and the
    /// separators `- / : . space`; the error is a lower-case reason (week-year `YYYY`, day-of-year
    /// `DD` and 12-hour `hh` fields are refused).
    package init(_ pattern: String) throws(DatePatternError) {
        self.pattern = pattern
        self.tokens = try DatePattern.tokenize(pattern)
    }

    private init(known pattern: String) {
        self.pattern = pattern
        self.tokens = (try? DatePattern.tokenize(pattern)) ?? []
    }

    /// `yyyy-MM-dd`
    package static let date = DatePattern(known: "yyyy-MM-dd")
    /// `yyyy-MM-dd'T'HH:mm:ss`
    package static let dateTime = DatePattern(known: "yyyy-MM-dd'T'HH:mm:ss")
    /// `yyyy-MM-dd'T'HH:mm:ss.SSS`
    package static let dateTimeMilliseconds = DatePattern(known: "yyyy-MM-dd'T'HH:mm:ss.SSS")
    /// `yyyy-MM-dd'T'HH:mm:ssxxx`
    package static let dateTimeOffset = DatePattern(known: "yyyy-MM-dd'T'HH:mm:ssxxx")
    /// `yyyy-MM-dd'T'HH:mm:ss.SSSxxx`
    package static let dateTimeMillisecondsOffset = DatePattern(known: "yyyy-MM-dd'T'HH:mm:ss.SSSxxx")

    private static func tokenize(_ pattern: String) throws(DatePatternError) -> [Token] {
        let chars = Array(pattern)
        var tokens: [Token] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                guard let close = chars[(i + 1)...].firstIndex(of: "'") else {
                    throw DatePatternError(reason: "unterminated quote")
                }
                tokens.append(.literal(close == i + 1 ? "'" : String(chars[(i + 1)..<close])))
                i = close + 1
                continue
            }
            guard c.isLetter else {
                guard "-/:. ".contains(c) else { throw DatePatternError(reason: "unexpected character \"\(c)\"") }
                tokens.append(.literal(String(c)))
                i += 1
                continue
            }
            var run = 1
            while i + run < chars.count && chars[i + run] == c { run += 1 }
            let field = String(repeating: c, count: run)
            switch field {
            case "yyyy": tokens.append(.year)
            case "MM": tokens.append(.month)
            case "dd": tokens.append(.day)
            case "HH": tokens.append(.hour)
            case "mm": tokens.append(.minute)
            case "ss": tokens.append(.second)
            case "SSS": tokens.append(.milliseconds)
            case "xxx", "XXX": tokens.append(.offset)
            default:
                switch c {
                case "Y": throw DatePatternError(reason: "\"\(field)\" is the week-based year; use yyyy")
                case "D": throw DatePatternError(reason: "\"\(field)\" is the day of the year; use dd")
                case "h": throw DatePatternError(reason: "\"\(field)\" is the 12-hour clock; use HH")
                default: throw DatePatternError(reason: "unsupported field \"\(field)\"")
                }
            }
            i += run
        }
        return tokens
    }
}

/// Why a date pattern was refused.
package struct DatePatternError: Error, Sendable, Hashable {
    /// Lower case, without the pattern.
    package var reason: String
}
