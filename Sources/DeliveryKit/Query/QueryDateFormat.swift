// Date patterns for query values, rendered without DateFormatter.
//
// Oracle's table of accepted formats (delivery-api.md §5.5) writes `YYYY` and `DD` for the calendar
// year and day of month; in ICU patterns those letters mean week-year and day-of-year, which is how
// Oracle's own SDK tests produce `1970/02/41`. This type accepts only `yyyy`, `MM`, `dd`, `HH`,
// `mm`, `ss`, `SSS` and `xxx` (offset `+HH:mm`), so a week-based year cannot be asked for.

import FoundationEssentials
import OCEQCore

/// A calendar-year date pattern plus the UTC offset used to render dates in it.
public struct QueryDateFormat: Sendable, Hashable, CustomStringConvertible {
    enum Token: Sendable, Hashable {
        case year, month, day, hour, minute, second, milliseconds, offset
        case literal(String)
    }

    /// The pattern as given.
    public let pattern: String
    /// Seconds east of UTC at which dates are rendered (0 renders UTC).
    public let utcOffsetSeconds: Int
    let tokens: [Token]

    /// A pattern built from `yyyy MM dd HH mm ss SSS xxx`, quoted literals like `'T'` and the
    /// separators `- / : . space`. Week-year (`YYYY`), day-of-year (`DD`) and 12-hour (`hh`) fields
    /// are refused.
    public init(_ pattern: String, utcOffsetSeconds: Int = 0) throws(QueryError) {
        self.pattern = pattern
        self.utcOffsetSeconds = utcOffsetSeconds
        self.tokens = try QueryDateFormat.tokenize(pattern)
    }

    private init(known pattern: String) {
        self.pattern = pattern
        self.utcOffsetSeconds = 0
        self.tokens = (try? QueryDateFormat.tokenize(pattern)) ?? []
    }

    /// The same pattern rendered at another UTC offset.
    public func offset(bySeconds seconds: Int) -> QueryDateFormat {
        (try? QueryDateFormat(pattern, utcOffsetSeconds: seconds)) ?? self
    }

    public var description: String { pattern }

    /// `1989-03-26`
    public static let date = QueryDateFormat(known: "yyyy-MM-dd")
    /// `1989/03/26`
    public static let slashDate = QueryDateFormat(known: "yyyy/MM/dd")
    /// `26-03-1989`
    public static let dayFirstDate = QueryDateFormat(known: "dd-MM-yyyy")
    /// `26/03/1989`
    public static let dayFirstSlashDate = QueryDateFormat(known: "dd/MM/yyyy")
    /// `1989-03-26T18:32:38`
    public static let dateTime = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ss")
    /// `1989-03-26T18:32:38.840`
    public static let dateTimeMilliseconds = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ss.SSS")
    /// `19890326`
    public static let compactDate = QueryDateFormat(known: "yyyyMMdd")
    /// `19890326183238`
    public static let compactDateTime = QueryDateFormat(known: "yyyyMMddHHmmss")
    /// `19890326183238840`
    public static let compactDateTimeMilliseconds = QueryDateFormat(known: "yyyyMMddHHmmssSSS")
    /// `1989-03-26T18:32:38+05:30`
    public static let dateTimeOffset = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ssxxx")
    /// `1989-03-26T18:32:38.840+05:30`
    public static let dateTimeMillisecondsOffset = QueryDateFormat(known: "yyyy-MM-dd'T'HH:mm:ss.SSSxxx")

    /// `date` rendered with this pattern at this offset.
    public func string(from date: Date) -> String {
        // Round to the microsecond first: `Date` keeps seconds since 2001 in a Double, so 15.678 may
        // come back as 15.677999…, which would otherwise print as .677.
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let totalMilliseconds = Int((microseconds / 1000).rounded(.down)) + utcOffsetSeconds * 1000
        let dayNumber = Int((Double(totalMilliseconds) / 86_400_000).rounded(.down))
        let inDay = totalMilliseconds - dayNumber * 86_400_000
        let (year, month, day) = CivilTime.date(days: dayNumber)
        var out = ""
        for token in tokens {
            switch token {
            case .year: out += CivilTime.pad(year, 4)
            case .month: out += CivilTime.pad(month, 2)
            case .day: out += CivilTime.pad(day, 2)
            case .hour: out += CivilTime.pad(inDay / 3_600_000, 2)
            case .minute: out += CivilTime.pad(inDay / 60_000 % 60, 2)
            case .second: out += CivilTime.pad(inDay / 1000 % 60, 2)
            case .milliseconds: out += CivilTime.pad(inDay % 1000, 3)
            case .offset:
                let magnitude = abs(utcOffsetSeconds) / 60
                out += (utcOffsetSeconds < 0 ? "-" : "+") + CivilTime.pad(magnitude / 60, 2) + ":"
                out += CivilTime.pad(magnitude % 60, 2)
            case .literal(let text): out += text
            }
        }
        return out
    }

    static func tokenize(_ pattern: String) throws(QueryError) -> [Token] {
        let chars = Array(pattern)
        var tokens: [Token] = []
        var i = 0
        func fail(_ reason: String) -> QueryError { .invalidDatePattern(pattern: pattern, reason: reason) }
        while i < chars.count {
            let c = chars[i]
            if c == "'" {
                guard let close = chars[(i + 1)...].firstIndex(of: "'") else { throw fail("unterminated quote") }
                tokens.append(.literal(close == i + 1 ? "'" : String(chars[(i + 1)..<close])))
                i = close + 1
                continue
            }
            guard c.isLetter else {
                guard "-/:. ".contains(c) else { throw fail("unexpected character \"\(c)\"") }
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
                case "Y": throw fail("\"\(field)\" is the week-based year; use yyyy")
                case "D": throw fail("\"\(field)\" is the day of the year; use dd")
                case "h": throw fail("\"\(field)\" is the 12-hour clock; use HH")
                default: throw fail("unsupported field \"\(field)\"")
                }
            }
            i += run
        }
        return tokens
    }
}
